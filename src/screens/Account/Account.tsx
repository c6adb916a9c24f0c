import styled from 'styled-components';
import { errorMessage } from '../../api/errors';
import { useGetCurrentUser } from '../../api/gen/endpoints/auth';
import { Alert, Page, Spinner } from '../../components/ui';
import { ChangePasswordSection } from './ChangePasswordSection';
import { DefaultVoiceSection } from './DefaultVoiceSection';
import { DeleteAccountSection } from './DeleteAccountSection';
import { SessionsSection } from './SessionsSection';
import { StorageSection } from './StorageSection';
import { ThemeSection } from './ThemeSection';

const Sections = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space(6)};
`;

/**
 * The reader's account (docs/product.md#account): their storage, asked of the server each time
 * the page opens (GET /auth/me, so the figures include what finished or started meanwhile), the
 * voice new books start with, the theme, their password, signing out everywhere, and deleting
 * the account.
 */
export function Account() {
  const me = useGetCurrentUser({ query: { refetchOnMount: 'always' } });
  const lead = me.data ? `Signed in as ${me.data.email}` : undefined;
  return (
    <Page title="Account" lead={lead}>
      {me.isPending ? (
        <Spinner label="Loading your account..." />
      ) : me.isError ? (
        <Alert>
          {errorMessage(me.error, 'Your account could not be loaded. Check your connection and reload the page.')}
        </Alert>
      ) : (
        <Sections>
          <StorageSection storage={me.data.storage} />
          <DefaultVoiceSection />
          <ThemeSection />
          <ChangePasswordSection email={me.data.email} />
          <SessionsSection />
          <DeleteAccountSection email={me.data.email} />
        </Sections>
      )}
    </Page>
  );
}
