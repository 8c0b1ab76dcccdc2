import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getSupabase } from '@/lib/supabase';
import { factorsQueryOptions } from './list-factors';

export interface TotpEnrollment {
  factorId: string;
  /** `data:image/svg+xml` QR code of the otpauth URI. */
  qrCode: string;
  /** Base32 secret, for typing into an app that can't scan. */
  secret: string;
}

/**
 * supabase-js hands the server's SVG markup over as `data:image/svg+xml;utf-8,<svg…>` unescaped;
 * a `#` in it (fill="#fff") would end the URL early, so the markup is percent-encoded again.
 */
export function qrCodeImageSource(qrCode: string): string {
  const markup = qrCode.replace(/^data:image\/svg\+xml;[^,]*,/, '');
  if (!markup.trimStart().startsWith('<')) return qrCode;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(markup)}`;
}

/** Starts a TOTP enrollment; the factor stays unverified until a first code is verified. */
export async function enrollTotp(friendlyName: string): Promise<TotpEnrollment> {
  const supabase = await getSupabase();
  // An abandoned enrollment leaves an unverified factor behind; clear it so names never clash.
  const { data: factors, error: listError } = await supabase.auth.mfa.listFactors();
  if (listError) throw listError;
  for (const factor of factors.all) {
    if (factor.factor_type === 'totp' && factor.status === 'unverified') {
      const { error } = await supabase.auth.mfa.unenroll({ factorId: factor.id });
      if (error) throw error;
    }
  }
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: 'totp', friendlyName });
  if (error) throw error;
  return { factorId: data.id, qrCode: qrCodeImageSource(data.totp.qr_code), secret: data.totp.secret };
}

export function useEnrollTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enrollTotp,
    onSettled: () => queryClient.invalidateQueries({ queryKey: factorsQueryOptions().queryKey }),
  });
}
