// Compile-time assertions for the `*.test-d.ts` files; nothing here runs.

/** True only when A and B are identical, including optionality and readonly modifiers. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Fails to compile unless T is `true`. */
export type Expect<T extends true> = T;
