import { act, renderHook } from '@testing-library/react';
import type { ChangeEvent, FormEvent } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/errors';
import { useAuthForm } from './useAuthForm';
import { loginFormSchema, type LoginForm } from './validation';

const empty: LoginForm = { email: '', password: '', rememberMe: false };
const submitEvent = () => ({ preventDefault: vi.fn() }) as unknown as FormEvent<HTMLFormElement>;
const typed = (value: string) => ({ target: { value } }) as ChangeEvent<HTMLInputElement>;
const ticked = (checked: boolean) => ({ target: { checked } }) as ChangeEvent<HTMLInputElement>;

function render() {
  return renderHook(() => useAuthForm(loginFormSchema, empty));
}

describe('useAuthForm', () => {
  it('shows no message before the first submit, then every broken rule, then follows the corrections', async () => {
    const send = vi.fn(async () => undefined);
    const { result } = render();
    act(() => result.current.text('email').onChange(typed('reader')));
    expect(result.current.text('email').error).toBeUndefined();

    await act(() => result.current.onSubmit(send, 'failed')(submitEvent()));
    expect(send).not.toHaveBeenCalled();
    expect(result.current.text('email').error).toBe('Invalid email address');
    expect(result.current.text('password').error).toBe('Password must be at least 6 characters');

    act(() => result.current.text('email').onChange(typed('reader@example.com')));
    expect(result.current.text('email')).toMatchObject({
      name: 'email',
      value: 'reader@example.com',
      error: undefined,
    });
    expect(result.current.text('password').error).toBe('Password must be at least 6 characters');
  });

  it('sends the valid values and stays busy after a successful send', async () => {
    const send = vi.fn(async () => undefined);
    const { result } = render();
    act(() => result.current.text('email').onChange(typed('reader@example.com')));
    act(() => result.current.text('password').onChange(typed('secret-words')));
    act(() => result.current.checkbox('rememberMe').onChange(ticked(true)));
    expect(result.current.checkbox('rememberMe')).toMatchObject({ name: 'rememberMe', checked: true });

    await act(() => result.current.onSubmit(send, 'failed')(submitEvent()));
    expect(send).toHaveBeenCalledWith({ email: 'reader@example.com', password: 'secret-words', rememberMe: true });
    expect(result.current.submitting).toBe(true);
    expect(result.current.serverError).toBeNull();
  });

  it("shows the messages a send refuses with, and the server's error (or the fallback) when it throws", async () => {
    const { result } = render();
    act(() => result.current.text('email').onChange(typed('reader@example.com')));
    act(() => result.current.text('password').onChange(typed('password')));

    await act(() => result.current.onSubmit(async () => ({ password: 'Too easy to guess' }), 'failed')(submitEvent()));
    expect(result.current.text('password').error).toBe('Too easy to guess');
    expect(result.current.submitting).toBe(false);

    const refusal = new ApiError(401, {
      detail: 'Incorrect email or password',
      message: 'Incorrect email or password',
    });
    await act(() => result.current.onSubmit(() => Promise.reject(refusal), 'Failed to login.')(submitEvent()));
    expect(result.current.serverError).toBe('Incorrect email or password');
    expect(result.current.submitting).toBe(false);

    await act(() =>
      result.current.onSubmit(() => Promise.reject(new Error('offline')), 'Failed to login.')(submitEvent()),
    );
    expect(result.current.serverError).toBe('Failed to login.');
  });
});
