import styled from 'styled-components';
import { Badge, Button, Disclosure } from '../../components/ui';
import { checkStatus, start, stop, useVoiceAssistant, type ServiceStatus } from '../../features/voice-assistant';

const serviceLabel: Record<ServiceStatus, string> = {
  unknown: 'Unknown',
  running: 'Running',
  stopped: 'Stopped',
  starting: 'Starting',
  error: 'Error',
};

const Box = styled.div`
  margin-top: ${({ theme }) => theme.space(6)};
  dl {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr);
    gap: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
    margin: ${({ theme }) => theme.space(3)} 0;
  }
  dt {
    color: ${({ theme }) => theme.colors.textMuted};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  ul {
    display: flex;
    flex-wrap: wrap;
    gap: ${({ theme }) => theme.space(2)};
    list-style: none;
    margin: 0;
    padding: 0;
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space(3)};
`;

/** The service's workings, closed by default: status, connection, websocket URL, tools, start and stop. */
export function DetailsPanel() {
  const voice = useVoiceAssistant();
  return (
    <Box>
      <Disclosure summary="Details">
        <dl>
          <dt>Service</dt>
          <dd>{serviceLabel[voice.serviceStatus]}</dd>
          <dt>Connection</dt>
          <dd>
            {voice.clientStatus === 'connected'
              ? 'Connected'
              : voice.clientStatus === 'connecting'
                ? 'Connecting'
                : voice.clientStatus === 'error'
                  ? 'Error'
                  : 'Disconnected'}
          </dd>
          {voice.websocketUrl && (
            <>
              <dt>WebSocket URL</dt>
              <dd>
                <code>{voice.websocketUrl}</code>
              </dd>
            </>
          )}
          {voice.toolNames.length > 0 && (
            <>
              <dt id="va-functions">Functions</dt>
              <dd>
                <ul aria-labelledby="va-functions">
                  {voice.toolNames.map((name) => (
                    <li key={name}>
                      <Badge tone="info">{name}</Badge>
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          )}
        </dl>
        <Row>
          <Button variant="secondary" onClick={() => void checkStatus()}>
            Refresh status
          </Button>
          <Button
            variant="secondary"
            onClick={() => void start()}
            disabled={voice.serviceStatus === 'running' || voice.serviceStatus === 'starting'}
          >
            Start the service
          </Button>
          <Button
            variant="secondary"
            onClick={() => void stop()}
            disabled={voice.serviceStatus !== 'running' && voice.serviceStatus !== 'error'}
          >
            Stop the service
          </Button>
        </Row>
      </Disclosure>
    </Box>
  );
}
