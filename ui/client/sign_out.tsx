/** @jsxRuntime automatic */
/** @jsxImportSource preact */
/**
 * The sign-out control of a host with an access token (README "Security"): shown only to a
 * browser signed in by its cookie, it says until when the sign-in lasts and offers "Sign out"
 * (this browser) and "Sign out everywhere" (every browser signed in to this host). Either goes
 * to the login form once the host confirmed it; a refusal is said in the page's language.
 *
 * @module
 */
import type { VNode } from "preact";
import { useEffect, useState } from "preact/hooks";
import { lang, localeOf } from "../i18n.ts";
import { type AuthStatus, authStatus, signOut } from "./api.ts";
import { errorText } from "./error_text.ts";
import { text } from "./strings.ts";

/**
 * The sign-out buttons (nothing on a host without a token, or before the host answered).
 *
 * @param props `leave` replaces the page once signed out (tests inject one)
 * @returns the control, or `null`
 */
export function SignOutControl(
  props: { readonly leave?: () => void } = {},
): VNode | null {
  const [status, setStatus] = useState<AuthStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    authStatus().then(setStatus, () => setStatus(null));
  }, []);
  if (status?.via !== "cookie") return null;
  const run = async (everywhere: boolean) => {
    setPending(true);
    setError(null);
    try {
      await signOut(everywhere);
      (props.leave ?? (() => location.assign("/login")))();
    } catch (err) {
      setError(errorText(err, lang.value));
      setPending(false);
    }
  };
  const until = status.expiresAt === undefined
    ? null
    : new Date(status.expiresAt).toLocaleDateString(localeOf(lang.value), { dateStyle: "medium" });
  return (
    <div class="sign-out" data-testid="sign-out-control">
      {until && (
        <p class="small muted" data-testid="signed-in-until">
          {text("signedInUntil").replace("{date}", until)}
        </p>
      )}
      <div class="sign-out-buttons">
        {[false, true].map((everywhere) => (
          <button
            type="button"
            class="ghost"
            key={String(everywhere)}
            data-testid={everywhere ? "sign-out-everywhere" : "sign-out"}
            title={everywhere ? text("signOutAllTitle") : undefined}
            disabled={pending}
            onClick={() => void run(everywhere)}
          >
            {text(everywhere ? "signOutAll" : "signOut")}
          </button>
        ))}
      </div>
      {error && <p class="small" role="alert">{error}</p>}
    </div>
  );
}
