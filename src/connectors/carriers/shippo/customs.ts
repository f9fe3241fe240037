import { DomainError } from '../../../domain/errors.js';

// Shippo takes eel_pfc and incoterm from fixed lists (its client refuses anything else), while
// the package config holds them as text (EasyPost's "NOEEI 30.37(a)", "AES X20240101123456";
// the spec's default incoterm FAS).
const NOEEI = /^NOEEI[\s_]*30[._\s]*(?:37[._\s]*\(?([AFH])\)?|36)$/i;
const AES = /^AES(?:[\s_-]*ITN)?[\s:_-]*(X\d{14})$/i;
const SHIPPO_INCOTERMS: Record<string, string> = { DDP: 'DDP', DDU: 'DDU', FCA: 'FCA', DAP: 'DAP', EDAP: 'eDAP' };

/** eel_pfc as Shippo's code (with the ITN of an AES filing); 409 naming the forms it takes. */
export function shippoEelPfc(value: string | null): { eelPfc?: string; aesItn?: string } {
  if (!value) return {};
  const v = value.trim();
  const noeei = NOEEI.exec(v);
  if (noeei) return { eelPfc: noeei[1] ? `NOEEI_30_37_${noeei[1].toLowerCase()}` : 'NOEEI_30_36' };
  const aes = AES.exec(v);
  if (aes) return { eelPfc: 'AES_ITN', aesItn: aes[1]!.toUpperCase() };
  throw new DomainError(
    'conflict',
    `Shippo cannot take eel_pfc "${value}": use NOEEI 30.37(a), NOEEI 30.37(f), NOEEI 30.37(h), NOEEI 30.36 or AES X<14 digits> (the ITN).`,
  );
}

/** The incoterm when Shippo offers it; otherwise none (Shippo applies its own default, DDU). */
export const shippoIncoterm = (value: string | null) => (value ? SHIPPO_INCOTERMS[value.trim().toUpperCase()] : undefined);
