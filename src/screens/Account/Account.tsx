import { errorMessage } from '../../api/errors';
import { useGetCurrentUser } from '../../api/gen/endpoints/auth/auth';
import { Alert, Page, Spinner } from '../../components/ui';
import { StorageSection } from './StorageSection';

/**
 * The reader's account (docs/product.md#account): for now its storage, asked of the server each
 * time the page opens (GET /auth/me), so the figures include what finished or started meanwhile.
 */
export function Account() {
  const me = useGetCurrentUser({ query: { refetchOnMount: 'always' } });
  const lead = me.data ? `Signed in as ${me.data.email}` : undefined;
  return (
    <Page title="Account" lead={lead}>
      {me.isPending ? (
        <Spinner label="Loading your storage..." />
      ) : me.isError ? (
        <Alert>
          {errorMessage(me.error, 'Your storage could not be loaded. Check your connection and reload the page.')}
        </Alert>
      ) : (
        <StorageSection storage={me.data.storage} />
      )}
    </Page>
  );
}
