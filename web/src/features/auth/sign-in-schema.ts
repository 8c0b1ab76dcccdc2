import { z } from 'zod';
import { currentPasswordField, emailField } from '@/lib/validation';

export const signInSchema = z.object({ email: emailField, password: currentPasswordField });
