/** htmldocs' `useValue` and its JSON types. htmldocs itself replaces the hook at build time; unset, it answers undefined, as here. */
export type JSONPrimitive = string | number | boolean | Date | null;
export type JSONObject<T> = { [key: string]: JSONValue<T> };
export type JSONInterface<T> = { [P in keyof T]: JSONValue<T[P]> };
export type JSONArray<T> = JSONValue<T>[];
export type JSONValue<T> = JSONPrimitive | JSONObject<T> | JSONInterface<T> | JSONArray<T>;

export function useValue<T extends JSONValue<T>>(_name: string): T | undefined {
  return undefined;
}
