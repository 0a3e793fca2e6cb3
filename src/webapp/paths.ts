/** Where the Mini App login page lives under WEBAPP_URL (SECURITY.md, rule 2). */
export const WEBAPP_LOGIN_PATH = "/webapp/login";

export function webAppLoginPageUrl(webAppUrl: string): string {
  return `${webAppUrl}${WEBAPP_LOGIN_PATH}`;
}
