import styled from 'styled-components';
import { Link, useLocation } from 'wouter';
import { isCurrentPlace, places, useRunningJobsCount } from './navigation';

/** Room below the page on a phone, so the fixed bar never covers its end. */
const Spacer = styled.div`
  display: none;
  @media (max-width: ${({ theme }) => theme.breakpoints.phone}) {
    display: block;
    height: calc(${({ theme }) => theme.layout.bottomNav} + env(safe-area-inset-bottom, 0px));
  }
`;

const Bar = styled.nav`
  display: none;
  @media (max-width: ${({ theme }) => theme.breakpoints.phone}) {
    display: block;
    position: fixed;
    inset: auto 0 0 0;
    z-index: 30;
    padding-bottom: env(safe-area-inset-bottom, 0px);
    background: ${({ theme }) => theme.colors.surface};
    border-top: 1px solid ${({ theme }) => theme.colors.border};
    box-shadow: ${({ theme }) => theme.shadowRaised};
  }
  ul {
    display: grid;
    grid-template-columns: repeat(${places.length}, 1fr);
    height: ${({ theme }) => theme.layout.bottomNav};
    margin: 0;
    padding: 0;
    list-style: none;
  }
`;

const Item = styled(Link)`
  position: relative;
  height: 100%;
  display: flex;
  flex-direction: column;
  align-items: center;
  justify-content: center;
  gap: 2px;
  font-size: ${({ theme }) => theme.fontSizes.xs};
  font-weight: 600;
  /* "Voice Assistant" may take two lines on a narrow phone: centred, tight, inside the bar. */
  line-height: 1.15;
  text-align: center;
  color: ${({ theme }) => theme.colors.textMuted};
  text-decoration: none;
  &[aria-current='page'] {
    color: ${({ theme }) => theme.colors.primary};
  }
  &[aria-current='page'] svg {
    stroke-width: 2.5;
  }
  &:hover {
    color: ${({ theme }) => theme.colors.text};
  }
`;

/** The running-jobs count over the Jobs icon. */
const Count = styled.span`
  position: absolute;
  top: 6px;
  left: calc(50% + 6px);
  min-width: 18px;
  padding: 0 4px;
  border-radius: ${({ theme }) => theme.radii.pill};
  background: ${({ theme }) => theme.colors.primary};
  color: ${({ theme }) => theme.colors.primaryText};
  font-size: ${({ theme }) => theme.fontSizes.xs};
  line-height: 18px;
  text-align: center;
`;

/**
 * On a phone (docs/product.md#navigation-bar): the main places at the bottom of the screen, an icon
 * over each label, the running-jobs count on Jobs. The mini-player sits above it.
 */
export function BottomNav() {
  const [location] = useLocation();
  const running = useRunningJobsCount();
  return (
    <>
      <Spacer aria-hidden="true" />
      <Bar aria-label="Main">
        <ul>
          {places.map(({ label, href, icon: Icon, badge }) => (
            <li key={href}>
              <Item href={href} aria-current={isCurrentPlace(location, href) ? 'page' : undefined}>
                <Icon size={22} aria-hidden />
                {label}
                {badge && running > 0 && (
                  <>
                    <Count aria-hidden="true">{running}</Count>
                    <span className="visually-hidden">({running} running)</span>
                  </>
                )}
              </Item>
            </li>
          ))}
        </ul>
      </Bar>
    </>
  );
}
