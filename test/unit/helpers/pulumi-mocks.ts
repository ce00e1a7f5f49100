/**
 * Pulumi mocks that record every registered resource, for tests of the component graph. They
 * prove which resources a program asks for, with which inputs; not that a cloud accepts them.
 */
import * as pulumi from "@pulumi/pulumi";

export interface Registered {
  type: string;
  name: string;
  /** Inputs as the engine would receive them; secrets stay wrapped (see `isSecretValue`). */
  inputs: Record<string, unknown>;
  provider?: string;
}

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export function installMocks(stack = "test"): Registered[] {
  const registered: Registered[] = [];
  pulumi.runtime.setMocks(
    {
      newResource(args) {
        registered.push({ type: args.type, name: args.name, inputs: args.inputs, provider: args.provider });
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call(args) {
        return args.inputs;
      },
    },
    "pulumi-nfv",
    stack,
    false,
  );
  return registered;
}

/** True for an input the SDK sent as a secret. */
export function isSecretValue(v: unknown): v is { value: unknown } {
  return typeof v === "object" && v !== null && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** The plain value of an input, secret or not. */
export function plain(v: unknown): unknown {
  return isSecretValue(v) ? v.value : v;
}

/** Resolves an Output in a test. */
export function valueOf<T>(o: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => o.apply(resolve));
}

/** Lets pending registrations reach the mock monitor. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
}
