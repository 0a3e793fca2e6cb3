/**
 * What a partner user is told about their verification (the partner KYC gate, ARCHITECTURE.md),
 * from the exchange's `kyc_status` and `edd_status`, as its rules for integrators read them. One
 * place for the gate, /verify and the background re-check's notice.
 */
import type { Translate } from "../../domain/translate.ts";

export type KycVerdict = "serve" | "wait" | "verify" | "refuse";

export interface KycReading {
  verdict: KycVerdict;
  text: string;
}

export function readKyc(
  t: Translate,
  user: { kyc_status: string; edd_status?: string | undefined },
  supportContact: string,
): KycReading {
  const support = supportContact;
  switch (user.kyc_status) {
    case "passed":
      // Enhanced due diligence: the exchange wants more from this user before serving them.
      if (user.edd_status === "required")
        return { verdict: "refuse", text: t("kyc-edd-required", { support }) };
      if (user.edd_status === "failed") return { verdict: "refuse", text: t("kyc-refused", { support }) };
      return { verdict: "serve", text: t("kyc-passed") };
    case "pending":
      return { verdict: "wait", text: t("kyc-pending") };
    case "not_started":
      return { verdict: "verify", text: t("kyc-not-started") };
    case "failed":
    case "declined":
      return { verdict: "refuse", text: t("kyc-refused", { support }) };
    default:
      // A status the exchange added later: worded neutrally, never its code.
      return { verdict: "refuse", text: t("kyc-unknown", { support }) };
  }
}
