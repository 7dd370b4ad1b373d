// Types only: what `execute` receives, read from the `inputSchema` a tool was defined with.

/** Flattens an intersection into one object type, so an editor shows `{ city: string }`. */
type Simplify<T> = { [K in keyof T]: T[K] } & {}

/** The arguments of a tool whose schema TypeScript cannot read: any object. */
type AnyArgs = Record<string, unknown>

/** The TypeScript type of one JSON Schema `type` name. */
type TypeOfName<Name, S> = Name extends 'string'
  ? string
  : Name extends 'number' | 'integer'
    ? number
    : Name extends 'boolean'
      ? boolean
      : Name extends 'null'
        ? null
        : Name extends 'array'
          ? ArrayOf<S>
          : Name extends 'object'
            ? ObjectOf<S>
            : unknown

type ArrayOf<S> = S extends { readonly items: infer Item }
  ? Item extends readonly unknown[]
    ? unknown[]
    : FromJsonSchema<Item>[]
  : unknown[]

type RequiredNames<S> = S extends { readonly required: readonly (infer Name)[] } ? Name & string : never

type ObjectOf<S> = S extends { readonly properties: infer Properties }
  ? string extends keyof Properties
    ? AnyArgs
    : Simplify<
        {
          -readonly [K in keyof Properties & RequiredNames<S>]: FromJsonSchema<Properties[K]>
        } & {
          -readonly [K in Exclude<keyof Properties & string, RequiredNames<S>>]?: FromJsonSchema<
            Properties[K]
          >
        }
      >
  : AnyArgs

type UnionOf<Members> = Members extends readonly (infer Member)[] ? FromJsonSchema<Member> : unknown

/**
 * The TypeScript type a JSON Schema written as a literal (`as const`, or inline in `defineTool`)
 * describes: `type` (one name or a list), `properties` with `required`, `items`, `enum`, `const`,
 * `anyOf` / `oneOf`. Properties beyond `properties` are left out of the type, so a misspelt argument
 * name is a compile error. What it cannot read (`$ref`, `allOf`, `prefixItems`, a schema typed only as
 * `JSONSchema`) is `unknown`, or any object at the root.
 *
 * @example
 * type Args = FromJsonSchema<{ type: 'object'; properties: { city: { type: 'string' } }; required: ['city'] }>
 * // { city: string }
 */
export type FromJsonSchema<S> = S extends { readonly const: infer Value }
  ? Value
  : S extends { readonly enum: readonly (infer Value)[] }
    ? Value
    : S extends { readonly anyOf: infer Members }
      ? UnionOf<Members>
      : S extends { readonly oneOf: infer Members }
        ? UnionOf<Members>
        : S extends { readonly type: infer Name }
          ? Name extends readonly (infer Each)[]
            ? TypeOfName<Each, S>
            : string extends Name
              ? unknown
              : TypeOfName<Name, S>
          : S extends { readonly properties: unknown }
            ? ObjectOf<S>
            : unknown

/** The input type of one Standard Schema (a zod schema). */
type StandardInput<S> = S extends { readonly '~standard': { readonly types?: infer Types } }
  ? NonNullable<Types> extends { readonly input: infer Input }
    ? Input
    : unknown
  : never

/** The arguments of a zod shape (`{ city: z.string() }`): a property per key, optional where it takes `undefined`. */
type RawShapeArgs<Shape> = Simplify<
  {
    -readonly [K in keyof Shape as undefined extends StandardInput<Shape[K]> ? never : K]: StandardInput<
      Shape[K]
    >
  } & {
    -readonly [K in keyof Shape as undefined extends StandardInput<Shape[K]> ? K : never]?: StandardInput<
      Shape[K]
    >
  }
>

/**
 * The arguments `execute` receives for an `inputSchema`: the input type of a zod schema or any other
 * Standard Schema, of a zod shape (`{ city: z.string() }`), the type given to the AI SDK's
 * `jsonSchema<T>()`, or what a JSON Schema literal describes (see `FromJsonSchema`). No schema: no
 * arguments. Anything else: any object.
 *
 * @example
 * type Args = InferToolArgs<z.ZodObject<{ city: z.ZodString }>> // { city: string }
 */
export type InferToolArgs<Schema> = [Schema] extends [undefined]
  ? Record<string, never>
  : Schema extends { readonly '~standard': { readonly types?: infer Types } }
    ? NonNullable<Types> extends { readonly input: infer Input }
      ? Input extends AnyArgs
        ? Input
        : AnyArgs
      : AnyArgs
    : Schema extends { readonly _type: infer Type; readonly jsonSchema: unknown }
      ? Type extends AnyArgs
        ? Type
        : AnyArgs
      : [keyof Schema] extends [never]
        ? AnyArgs
        : Schema extends { readonly [key: string]: { readonly '~standard': unknown } }
          ? RawShapeArgs<Schema>
          : FromJsonSchema<Schema> extends infer Args extends AnyArgs
            ? Args
            : AnyArgs
