import styled from 'styled-components';
import { Badge, Button, Disclosure } from '../../components/ui';
import {
  checkStatus,
  start,
  stop,
  useServiceStatus,
  useVoiceAssistant,
  useVoiceStatus,
  type ServiceStatus,
} from '../../features/voice-assistant';

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

/**
 * The service's workings, closed by default: status, connection, websocket URL, tools, start and
 * stop. The URL and tools are the server's latest status answer (the data cache).
 */
export function DetailsPanel() {
  const voice = useVoiceAssistant();
  const service = useServiceStatus();
  const status = useVoiceStatus();
  const websocketUrl = status?.websocket_url ?? null;
  const toolNames = status?.mcp_functions ?? [];
  return (
    <Box>
      <Disclosure summary="Details">
        <dl>
          <dt>Service</dt>
          <dd>{serviceLabel[service]}</dd>
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
          {websocketUrl && (
            <>
              <dt>WebSocket URL</dt>
              <dd>
                <code>{websocketUrl}</code>
              </dd>
            </>
          )}
          {toolNames.length > 0 && (
            <>
              <dt id="va-functions">Functions</dt>
              <dd>
                <ul aria-labelledby="va-functions">
                  {toolNames.map((name) => (
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
            disabled={service === 'running' || service === 'starting'}
          >
            Start the service
          </Button>
          <Button
            variant="secondary"
            onClick={() => void stop()}
            disabled={service !== 'running' && service !== 'error'}
          >
            Stop the service
          </Button>
        </Row>
      </Disclosure>
    </Box>
  );
}
