/**
 * Orders whose outcome is open (sent, unknown, placed): reconciled, and their owners told. Also at
 * start: orders left open by a crash or a restart are reconciled at once, not a tick later.
 */
import { orderNoticeText } from "../../bot/ui/quote-card.ts";
import type { Job, JobContext } from "./job.ts";

export function reconcileOrdersJob({ deps, notifier }: JobContext): Job {
  return {
    name: "order reconciliation",
    trigger: "start and tick",
    async run() {
      try {
        const notices = await deps.orders.reconcileAll();
        for (const notice of notices) {
          // reconcileAll already applied the user's order switch (and some notices always go out);
          // the mode's sound still applies. A money outcome is never held by quiet hours.
          const phrase = await deps.phishing.get(notice.userId);
          await notifier.notify({
            userId: notice.userId,
            kind: "orders",
            always: true,
            locale: notice.locale,
            render: (t, locale) => ({ text: orderNoticeText(t, notice, locale, phrase) }),
          });
        }
      } catch (error) {
        deps.log.error({ err: error }, "order reconciliation failed");
      }
    },
  };
}
