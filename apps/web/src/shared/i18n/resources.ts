import type { Resource } from 'i18next';

export type Messages = Record<string, unknown>;

/** language -> namespace -> messages, from the modules of src/locales/<language>/<namespace>.json. */
export function resourcesFrom(modules: Record<string, Messages>): Resource {
  const resources: Resource = {};
  for (const [path, messages] of Object.entries(modules)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, language = '', namespace = ''] = match;
    (resources[language] ??= {})[namespace] = messages;
  }
  return resources;
}
