import { useRef, useState, type DragEvent } from 'react';
import styled from 'styled-components';
import { Button, FieldMessage } from '../../components/ui';
import { formatBytes } from '../../entities/time';
import { INPUT_FORMAT_ACCEPT } from '../../features/upload';

const Zone = styled.div<{ $active: boolean }>`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => theme.space(8)};
  border: 2px dashed ${({ theme, $active }) => ($active ? theme.colors.primary : theme.colors.textMuted)};
  border-radius: ${({ theme }) => theme.radii.md};
  background: ${({ theme, $active }) => ($active ? theme.tone.info.background : theme.colors.surface)};
  text-align: center;
  transition: background 0.15s;
`;

const Chosen = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space(3)};
  padding: ${({ theme }) => theme.space(3)};
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radii.md};
`;

const P = styled.p`
  margin: 0;
`;

/**
 * The drop area of the File Upload tab, highlighted while a file is dragged over it, with a
 * 'Choose file' button for keyboard and pointer users. Shows the chosen file with Remove.
 */
export function FileDrop({
  file,
  error,
  describedBy,
  onFile,
  onRemove,
}: {
  file: File | null;
  error?: string;
  describedBy?: string;
  onFile: (file: File) => void;
  onRemove: () => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  const onDragOver = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDragLeave = (event: DragEvent<HTMLDivElement>) => {
    // Moving onto a child is not leaving.
    if (event.relatedTarget instanceof Node && event.currentTarget.contains(event.relatedTarget)) return;
    setDragging(false);
  };
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onFile(dropped);
  };

  return (
    <div>
      {file ? (
        <Chosen>
          <div>
            <P>
              <strong>{file.name}</strong>
            </P>
            <P>{formatBytes(file.size)}</P>
          </div>
          <Button variant="secondary" onClick={onRemove} aria-label={`Remove ${file.name}`}>
            Remove
          </Button>
        </Chosen>
      ) : (
        <Zone
          data-testid="file-drop"
          data-dragging={dragging ? 'true' : 'false'}
          $active={dragging}
          onDragEnter={onDragOver}
          onDragOver={onDragOver}
          onDragLeave={onDragLeave}
          onDrop={onDrop}
        >
          <P>{dragging ? 'Drop the file to use it' : 'Drag and drop a book file here, or'}</P>
          <Button variant="secondary" onClick={() => input.current?.click()} aria-describedby={describedBy}>
            Choose file
          </Button>
          <input
            ref={input}
            type="file"
            accept={INPUT_FORMAT_ACCEPT}
            hidden
            data-testid="file-input"
            onChange={(event) => {
              const chosen = event.target.files?.[0];
              event.target.value = '';
              if (chosen) onFile(chosen);
            }}
          />
        </Zone>
      )}
      <FieldMessage>TXT, EPUB, PDF, Markdown or HTML files up to 10MB</FieldMessage>
      {error && (
        <FieldMessage role="alert" $error>
          {error}
        </FieldMessage>
      )}
    </div>
  );
}
