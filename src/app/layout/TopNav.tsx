import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import styled from 'styled-components';
import { Link, useLocation } from 'wouter';
import { useListJobs } from '../../api/gen/endpoints/jobs/jobs';
import { Badge, Button } from '../../components/ui';
import { paths } from '../../lib/paths';
import { logout, useAuth } from '../../features/auth';

const links = [
  { label: 'Dashboard', href: paths.dashboard() },
  { label: 'Jobs', href: paths.jobs() },
  { label: 'Library', href: paths.library() },
  { label: 'Voice Assistant', href: paths.voiceAssistant() },
] as const;

/** How often the running-jobs badge refreshes: the dashboard's rate (docs/product.md#navigation-bar). */
const RUNNING_COUNT_REFRESH_MS = 10_000;

// The bar reacts to its own width (a container query), so it also collapses inside a narrow
// story frame; the bar spans the page, so in the app this is the ~768px viewport breakpoint.
const Header = styled.header`
  container-type: inline-size;
  background: ${({ theme }) => theme.colors.surface};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Bar = styled.nav`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space(4)};
  max-width: 1100px;
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space(3)} ${theme.space(4)}`};
`;

const Brand = styled(Link)`
  font-weight: 800;
  font-size: ${({ theme }) => theme.fontSizes.xl};
  text-decoration: none;
  color: ${({ theme }) => theme.colors.primary};
`;

const MenuButton = styled(Button)`
  display: none;
  margin-left: auto;
  @container (max-width: 767px) {
    display: inline-block;
  }
`;

const Menu = styled.div<{ $open: boolean }>`
  display: flex;
  flex: 1;
  align-items: center;
  gap: ${({ theme }) => theme.space(4)};
  @container (max-width: 767px) {
    display: ${({ $open }) => ($open ? 'flex' : 'none')};
    flex-basis: 100%;
    flex-direction: column;
    align-items: stretch;
  }
`;

const LinkList = styled.ul`
  display: flex;
  gap: ${({ theme }) => theme.space(1)};
  list-style: none;
  margin: 0;
  padding: 0;
  @container (max-width: 767px) {
    flex-direction: column;
  }
`;

const NavLink = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
  border-radius: ${({ theme }) => theme.radii.md};
  color: ${({ theme }) => theme.colors.text};
  text-decoration: none;
  &[aria-current='page'] {
    background: ${({ theme }) => theme.tone.info.background};
    color: ${({ theme }) => theme.tone.info.text};
    font-weight: 700;
  }
  &:hover {
    text-decoration: underline;
  }
`;

const Account = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(3)};
  margin-left: auto;
  @container (max-width: 767px) {
    margin-left: 0;
    justify-content: space-between;
  }
`;

const Email = styled.span`
  color: ${({ theme }) => theme.colors.textMuted};
  overflow-wrap: anywhere;
`;

/**
 * PENDING + PROCESSING books and single texts (the server's `running` filter, top-level jobs only:
 * a converting book counts once, not once per chapter); only `total` is read.
 */
function useRunningJobsCount(): number {
  const { data } = useListJobs(
    { status: 'running', top_level: true, page_size: 1 },
    {
      query: {
        retry: false,
        // Stop asking after an error (e.g. a server without the jobs route yet): no badge, no noise.
        refetchInterval: (query) => (query.state.status === 'error' ? false : RUNNING_COUNT_REFRESH_MS),
      },
    },
  );
  return data?.total ?? 0;
}

function isActive(location: string, href: string): boolean {
  return location === href || location.startsWith(`${href}/`);
}

export function TopNav() {
  const { user } = useAuth();
  const [location, navigate] = useLocation();
  const queryClient = useQueryClient();
  const running = useRunningJobsCount();
  const [open, setOpen] = useState(false);
  const menuId = useId();

  const signOut = async () => {
    // The listening position is saved while the token is still valid; then playback stops. The
    // player's store is loaded with the player (after the first screen), not with the top bar.
    const { stopForSignOut } = await import('../../features/player/controls');
    await stopForSignOut();
    logout();
    queryClient.clear();
    navigate(paths.login());
  };

  return (
    <Header>
      <Bar aria-label="Main">
        <Brand href={paths.dashboard()}>Lectio</Brand>
        <MenuButton variant="secondary" aria-expanded={open} aria-controls={menuId} onClick={() => setOpen(!open)}>
          Menu
        </MenuButton>
        <Menu id={menuId} $open={open}>
          <LinkList>
            {links.map(({ label, href }) => (
              <li key={href}>
                <NavLink
                  href={href}
                  aria-current={isActive(location, href) ? 'page' : undefined}
                  onClick={() => setOpen(false)}
                >
                  {label}
                  {href === paths.jobs() && running > 0 && (
                    <>
                      <Badge tone="info" aria-hidden="true">
                        {running}
                      </Badge>
                      <span className="visually-hidden">({running} running)</span>
                    </>
                  )}
                </NavLink>
              </li>
            ))}
          </LinkList>
          <Account>
            {user && <Email>{user.email}</Email>}
            <Button variant="secondary" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Account>
        </Menu>
      </Bar>
    </Header>
  );
}
