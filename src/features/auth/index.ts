export { useAuth } from './hooks';
export { configureSessionStorage, TOKEN_KEY, USER_KEY } from '../../entities/session';
export { connectAuthToApi, initAuth, login, logout, register, resetAuth } from './store';
export {
  changePassword,
  confirmPasswordReset,
  deleteAccount,
  requestPasswordReset,
  signOutEverywhere,
} from './account';
export {
  changePasswordSchema,
  forgotPasswordSchema,
  loginFormSchema,
  newPasswordSchema,
  registerFormSchema,
  type ChangePasswordForm,
  type ForgotPasswordForm,
  type LoginForm,
  type NewPasswordForm,
  type RegisterForm,
} from './validation';
export { useAuthForm } from './useAuthForm';
export { Aside, AuthFrame, FormStack } from './AuthFrame';
export { NewPasswordFields } from './NewPasswordFields';
export { loadStrengthEstimator, personalInputs, weakPasswordMessage } from './strength';
