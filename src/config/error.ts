/** The one error configuration throws: the variable it is about, and one sentence an operator reads. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(message);
    this.variable = variable;
  }
}

export type Env = Record<string, string | undefined>;
