import styled from 'styled-components';
import { Button } from './Button';
import { pageWindow } from './pageWindow';

const Nav = styled.nav`
  display: flex;
  flex-wrap: wrap;
  justify-content: center;
  gap: ${({ theme }) => theme.space(2)};
  margin-top: ${({ theme }) => theme.space(6)};
`;

const PageButton = styled(Button)`
  min-width: 40px;
  padding-left: ${({ theme }) => theme.space(3)};
  padding-right: ${({ theme }) => theme.space(3)};
`;

export interface PaginationProps {
  page: number;
  pages: number;
  onChange: (page: number) => void;
  label?: string;
}

/** Previous, at most 5 numbered pages around the current one (aria-current), Next. */
export function Pagination({ page, pages, onChange, label = 'Pagination' }: PaginationProps) {
  if (pages <= 1) return null;
  return (
    <Nav aria-label={label}>
      <Button variant="secondary" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        Previous
      </Button>
      {pageWindow(page, pages).map((number) => (
        <PageButton
          key={number}
          variant={number === page ? 'primary' : 'secondary'}
          aria-current={number === page ? 'page' : undefined}
          aria-label={`Page ${number}`}
          onClick={() => onChange(number)}
        >
          {number}
        </PageButton>
      ))}
      <Button variant="secondary" disabled={page >= pages} onClick={() => onChange(page + 1)}>
        Next
      </Button>
    </Nav>
  );
}
