/** Sessions about to expire: their owners warned; sessions idle past the user's limit: logged out, and told. */
import { formatTime } from "../../bot/ui/format.ts";
import { loginKeyboard, webAppLoginMarkup } from "../../bot/ui/keyboards.ts";
import { withPhishingLine } from "../../bot/ui/phishing.ts";
import { checkSessions, type SessionNotice } from "../../session/expiry-watch.ts";
import { webAppLoginPageUrl } from "../../support/webapp-paths.ts";
import type { Job, JobContext } from "./job.ts";

export function sessionExpiryJob({ deps, notifier }: JobContext): Job {
  async function notify(notice: SessionNotice): Promise<void> {
    if (notice.kind === "expiry-warning") {
      // It asks for a code: it carries the anti-phishing phrase like every such question.
      const phrase = await deps.phishing.get(notice.userId);
      await notifier.notify({
        userId: notice.userId,
        kind: "expiry",
        locale: notice.locale,
        render: (t, locale) => ({
          text: withPhishingLine(
            t,
            phrase,
            // It says what works: a code alone with a remembered password, else the button.
            t(notice.codeOnly ? "login-expiry-warning" : "login-expiry-warning-tap", {
              time: formatTime(notice.expiresAt, locale),
            }),
          ),
          other: {
            // This queue's API client has none of the bot's transformers: the Mini App button is set here.
            reply_markup: webAppLoginMarkup(
              loginKeyboard((key) => (key === "button-login" ? t("login-stay-button") : t(key))),
              deps.config.webAppUrl ? webAppLoginPageUrl(deps.config.webAppUrl) : undefined,
            ),
          },
        }),
      });
    } else {
      await notifier.notify({
        userId: notice.userId,
        kind: "account",
        locale: notice.locale,
        render: (t) => ({ text: t("logout-auto", { minutes: notice.minutes }) }),
      });
    }
  }

  return {
    name: "session expiry",
    trigger: "tick",
    async run() {
      try {
        await checkSessions({ ...deps, notify });
      } catch (error) {
        deps.log.error({ err: error }, "session check failed");
      }
    },
  };
}
