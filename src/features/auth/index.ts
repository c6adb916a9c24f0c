export { useAuth } from './hooks';
export {
  configureSessionStorage,
  readToken,
  TOKEN_KEY,
  USER_KEY,
  type SessionStorages,
} from '../../entities/session';
export {
  connectAuthToApi,
  fetchCurrentUser,
  handleUnauthorized,
  initAuth,
  login,
  logout,
  register,
  resetAuth,
  state as authState,
  type AuthState,
  type Credentials,
} from './store';
export {
  loginFormSchema,
  registerFormSchema,
  validate,
  type FieldErrors,
  type LoginForm,
  type RegisterForm,
} from './validation';
export { Aside, AuthFrame, FormStack } from './AuthFrame';
export { PasswordStrengthMeter, usePasswordStrength } from './PasswordStrengthMeter';
export {
  loadStrengthEstimator,
  personalInputs,
  weakPasswordMessage,
  MIN_STRENGTH_SCORE,
  type PasswordStrength,
} from './strength';
