export { useAuth } from './hooks';
export { configureSessionStorage, TOKEN_KEY, USER_KEY } from '../../entities/session';
export { connectAuthToApi, initAuth, login, logout, register, resetAuth } from './store';
export { loginFormSchema, registerFormSchema, type LoginForm, type RegisterForm } from './validation';
export { useAuthForm } from './useAuthForm';
export { Aside, AuthFrame, FormStack } from './AuthFrame';
export { PasswordStrengthMeter, usePasswordStrength } from './PasswordStrengthMeter';
export { loadStrengthEstimator, personalInputs, weakPasswordMessage } from './strength';
