import { Link } from 'wouter';
import { Aside } from '../../features/auth';
import { useEnvironment } from '../../features/environment';
import { paths } from '../../lib/paths';

/**
 * "New to Lectio? Create an account", shown when the server allows sign-ups. It waits for the
 * environment (a network answer) anyway, so it is its own chunk: the sign-in form shows without the
 * data layer's query code, which arrives with it (README.md, "Speed and size").
 */
export function SignupInvite() {
  const environment = useEnvironment();
  if (!environment?.features.signup_enabled) return null;
  return (
    <Aside>
      New to Lectio? <Link href={paths.register()}>Create an account</Link>
    </Aside>
  );
}
