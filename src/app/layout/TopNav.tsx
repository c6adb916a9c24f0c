import { useQueryClient } from '@tanstack/react-query';
import styled, { css } from 'styled-components';
import { Link, useLocation } from 'wouter';
import { Badge, Button, ButtonLink } from '../../components/ui';
import { paths } from '../../lib/paths';
import { logout, useAuth } from '../../features/auth';
import { isCurrentPlace, places, useRunningJobsCount } from './navigation';
import { ThemeToggle } from './ThemeToggle';

const Header = styled.header`
  background: ${({ theme }) => theme.colors.surface};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
`;

const Bar = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(4)};
  max-width: 1100px;
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(4)}`};
  min-height: 60px;
`;

const Brand = styled(Link)`
  font-family: ${({ theme }) => theme.fonts.book};
  font-weight: 700;
  font-size: ${({ theme }) => theme.fontSizes.xl};
  text-decoration: none;
  color: ${({ theme }) => theme.colors.primary};
`;

/** The links: on a phone the bottom navigation (BottomNav) takes their place. */
const Links = styled.nav`
  @media (max-width: ${({ theme }) => theme.breakpoints.phone}) {
    display: none;
  }
  ul {
    display: flex;
    gap: ${({ theme }) => theme.space(1)};
    list-style: none;
    margin: 0;
    padding: 0;
  }
`;

/** A place in the bar: a pill, filled when it is the current page. */
const placeLink = css`
  padding: ${({ theme }) => `${theme.space(2)} ${theme.space(3)}`};
  border-radius: ${({ theme }) => theme.radii.pill};
  color: ${({ theme }) => theme.colors.text};
  text-decoration: none;
  &[aria-current='page'] {
    background: ${({ theme }) => theme.tone.info.background};
    color: ${({ theme }) => theme.tone.info.text};
    font-weight: 700;
  }
  &:hover {
    color: ${({ theme }) => theme.colors.text};
    text-decoration: underline;
  }
`;

const NavLink = styled(Link)`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  ${placeLink}
`;

const Account = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space(2)};
  margin-left: auto;
`;

const AddBook = styled(ButtonLink)`
  @media (max-width: ${({ theme }) => theme.breakpoints.phone}) {
    display: none;
  }
`;

/** The reader's own page (their storage for now), beside their email and Sign out. */
const AccountLink = styled(Link)`
  ${placeLink}
`;

const Email = styled.span`
  color: ${({ theme }) => theme.colors.textMuted};
  font-size: ${({ theme }) => theme.fontSizes.sm};
  overflow-wrap: anywhere;
  @media (max-width: 960px) {
    display: none;
  }
`;

/**
 * The top bar (docs/product.md#navigation-bar): the brand, the main places (Dashboard, Jobs with its
 * running badge, Library, Voice Assistant), Upload New Story, the reader's email, Account, dark mode and Sign out. On
 * a phone the places move to the bottom navigation and the bar keeps the brand, Account, dark mode
 * and Sign out.
 */
export function TopNav() {
  const { user } = useAuth();
  const [location, navigate] = useLocation();
  const queryClient = useQueryClient();
  const running = useRunningJobsCount();

  const signOut = async () => {
    // The listening position is saved while the token is still valid; then playback stops. The
    // player is loaded with the player's chunk (after the first screen), not with the top bar.
    const { stopForSignOut } = await import('../../features/player/controls');
    await stopForSignOut();
    logout();
    queryClient.clear();
    navigate(paths.login());
  };

  return (
    <Header>
      <Bar>
        <Brand href={paths.dashboard()}>Lectio</Brand>
        <Links aria-label="Main">
          <ul>
            {places
              .filter((place) => !place.add)
              .map(({ label, href, badge }) => (
                <li key={href}>
                  <NavLink href={href} aria-current={isCurrentPlace(location, href) ? 'page' : undefined}>
                    {label}
                    {badge && running > 0 && (
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
          </ul>
        </Links>
        <Account>
          <AddBook variant="primary" href={paths.upload()}>
            Upload New Story
          </AddBook>
          {user && <Email>{user.email}</Email>}
          <AccountLink
            href={paths.account()}
            aria-current={isCurrentPlace(location, paths.account()) ? 'page' : undefined}
          >
            Account
          </AccountLink>
          <ThemeToggle />
          <Button variant="secondary" onClick={() => void signOut()}>
            Sign out
          </Button>
        </Account>
      </Bar>
    </Header>
  );
}
