/**
 * Where the Mini App login page lives under WEBAPP_URL (SECURITY.md, rule 2). Below both `bot/`
 * (the login button's URL) and `webapp/` (the route that serves it), so neither imports the other
 * for it.
 */
export const WEBAPP_LOGIN_PATH = "/webapp/login";

export function webAppLoginPageUrl(webAppUrl: string): string {
  return `${webAppUrl}${WEBAPP_LOGIN_PATH}`;
}
