import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { Spinner } from '../components/ui';
import { paths, routePatterns } from '../lib/paths';
import { connectAuthToApi, initAuth, useAuth } from '../features/auth';

// Route-level code splitting: every screen is a chunk of its own, fetched when its route first renders,
// and so is the signed-in shell (data cache, top bar, player) around the signed-in screens. A new
// screen or view (a read-along view, say) gets its own lazy() here, and icons are imported one by
// one where they are used, so each lands in the chunk of the screen that shows it.
const Login = lazy(() => import('../screens/Login/Login').then((m) => ({ default: m.Login })));
const Register = lazy(() => import('../screens/Register/Register').then((m) => ({ default: m.Register })));
const ForgotPassword = lazy(() =>
  import('../screens/ForgotPassword/ForgotPassword').then((m) => ({ default: m.ForgotPassword })),
);
const ResetPassword = lazy(() =>
  import('../screens/ResetPassword/ResetPassword').then((m) => ({ default: m.ResetPassword })),
);
const Terms = lazy(() => import('../screens/Legal/Legal').then((m) => ({ default: m.Terms })));
const Privacy = lazy(() => import('../screens/Legal/Legal').then((m) => ({ default: m.Privacy })));
const SignedInShell = lazy(() => import('./layout/SignedInShell').then((m) => ({ default: m.SignedInShell })));
const Dashboard = lazy(() => import('../screens/Dashboard/Dashboard').then((m) => ({ default: m.Dashboard })));
const Upload = lazy(() => import('../screens/Upload/Upload').then((m) => ({ default: m.Upload })));
const Jobs = lazy(() => import('../screens/Jobs/Jobs').then((m) => ({ default: m.Jobs })));
const JobDetail = lazy(() => import('../screens/JobDetail/JobDetail').then((m) => ({ default: m.JobDetail })));
const Library = lazy(() => import('../screens/Library/Library').then((m) => ({ default: m.Library })));
const LibraryDetail = lazy(() =>
  import('../screens/LibraryDetail/LibraryDetail').then((m) => ({ default: m.LibraryDetail })),
);
const Account = lazy(() => import('../screens/Account/Account').then((m) => ({ default: m.Account })));
const VoiceAssistant = lazy(() =>
  import('../screens/VoiceAssistant/VoiceAssistant').then((m) => ({ default: m.VoiceAssistant })),
);

/** Signed-in routes: 'Loading...' while auth loads, /login when signed out. */
function Protected({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <Spinner label="Loading..." />;
  if (!isAuthenticated) return <Redirect to={paths.login()} replace />;
  return (
    <Suspense fallback={<Spinner label="Loading..." />}>
      <SignedInShell>
        {/* The top bar stays up while a screen's chunk loads. */}
        <Suspense fallback={<Spinner label="Loading..." />}>{children}</Suspense>
      </SignedInShell>
    </Suspense>
  );
}

/** Signed-out routes: a signed-in user goes to the dashboard. */
function SignedOutOnly({ children }: { children: ReactNode }) {
  const { isLoading, isAuthenticated } = useAuth();
  if (isLoading) return <Spinner label="Loading..." />;
  if (isAuthenticated) return <Redirect to={paths.dashboard()} replace />;
  return <Suspense fallback={<Spinner label="Loading..." />}>{children}</Suspense>;
}

/** On start: wire the API client to the session and restore the session. */
function useAppStart() {
  useEffect(() => {
    connectAuthToApi();
    void initAuth();
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
      <Route path={routePatterns.forgotPassword}>
        <SignedOutOnly>
          <ForgotPassword />
        </SignedOutOnly>
      </Route>
      {/* A reset link works signed in or out: setting the password signs every session out. */}
      <Route path={routePatterns.resetPassword}>
        <Suspense fallback={<Spinner label="Loading..." />}>
          <ResetPassword />
        </Suspense>
      </Route>
      <Route path={routePatterns.terms}>
        <Suspense fallback={<Spinner label="Loading..." />}>
          <Terms />
        </Suspense>
      </Route>
      <Route path={routePatterns.privacy}>
        <Suspense fallback={<Spinner label="Loading..." />}>
          <Privacy />
        </Suspense>
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
      <Route path={routePatterns.account}>
        <Protected>
          <Account />
        </Protected>
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
