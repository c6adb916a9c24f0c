import { Page } from '../../components/ui';
import { useAuth } from '../../features/auth';

/** For now only the welcome line; counters, recent jobs and Continue Listening come later. */
export function Dashboard() {
  const { user } = useAuth();
  return <Page title="Dashboard" lead={user ? `Welcome, ${user.email}` : undefined} />;
}
