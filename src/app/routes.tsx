import { useEffect, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Spinner } from '../components/ui';
import { paths, routePatterns } from '../lib/paths';
import { connectAuthToApi, initAuth, useAuth } from '../features/auth';
import { loadEnvironment } from '../features/environment';
import { Dashboard } from '../screens/Dashboard/Dashboard';
import { JobDetail } from '../screens/JobDetail/JobDetail';
import { Jobs } from '../screens/Jobs/Jobs';
import { Library } from '../screens/Library/Library';
import { LibraryDetail } from '../screens/LibraryDetail/LibraryDetail';
import { Login } from '../screens/Login/Login';
import { Register } from '../screens/Register/Register';
import { Upload } from '../screens/Upload/Upload';
import { VoiceAssistant } from '../screens/VoiceAssistant/VoiceAssistant';
import { AppLayout } from './layout/AppLayout';

/** Signed-in routes: 'Loading...' while auth loads, /login when signed out. */
function Protected({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <Spinner label="Loading..." />;
  if (!isAuthenticated) return <Redirect to={paths.login()} replace />;
  return <AppLayout>{children}</AppLayout>;
}

/** Signed-out routes: a signed-in user goes to the dashboard. */
function SignedOutOnly({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <Spinner label="Loading..." />;
  if (isAuthenticated) return <Redirect to={paths.dashboard()} replace />;
  return <>{children}</>;
}

/** On start: wire the API client to the session, restore the session, fetch the environment. */
function useAppStart() {
  useEffect(() => {
    connectAuthToApi();
    void initAuth();
    void loadEnvironment();
  }, []);
}

export function AppRoutes() {
  useAppStart();
  return (
    <Switch>
      <Route path={routePatterns.login}>
        <SignedOutOnly>
          <Login />
        </SignedOutOnly>
      </Route>
      <Route path={routePatterns.register}>
        {/* Register itself sends visitors to /login when signup_enabled is false. */}
        <SignedOutOnly>
          <Register />
        </SignedOutOnly>
      </Route>
      <Route path={routePatterns.dashboard}>
        <Protected>
          <Dashboard />
        </Protected>
      </Route>
      <Route path={routePatterns.upload}>
        <Protected>
          <Upload />
        </Protected>
      </Route>
      <Route path={routePatterns.jobs}>
        <Protected>
          <Jobs />
        </Protected>
      </Route>
      <Route path={routePatterns.job}>
        {(params) => (
          <Protected>
            <JobDetail jobId={params.jobId} />
          </Protected>
        )}
      </Route>
      <Route path={routePatterns.library}>
        <Protected>
          <Library />
        </Protected>
      </Route>
      <Route path={routePatterns.libraryBook}>
        {(params) => (
          <Protected>
            <LibraryDetail jobId={params.jobId} />
          </Protected>
        )}
      </Route>
      <Route path={routePatterns.voiceAssistant}>
        <Protected>
          <VoiceAssistant />
        </Protected>
      </Route>
      {/* / and any unknown path */}
      <Route>
        <Redirect to={paths.dashboard()} replace />
      </Route>
    </Switch>
  );
}
