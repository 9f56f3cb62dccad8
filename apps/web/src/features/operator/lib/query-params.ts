/** A list's query string without the parameters left unset (undefined or empty). */
export function queryParams(
  values: Record<string, string | number | undefined>,
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined && value !== '') result[key] = String(value);
  }
  return result;
}
