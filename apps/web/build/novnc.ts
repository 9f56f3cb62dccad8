import type { Plugin } from 'vite';

/** The one statement of noVNC's core/util/browser.js that awaits at the module's top level. */
export const NOVNC_AWAIT =
  'supportsWebCodecsH264Decode = await _checkWebCodecsH264DecodeSupport();';

/**
 * noVNC (the web console's page) without its top-level await. noVNC 1.7 awaits a check of the
 * browser's H.264 decoder while its module loads; a top-level await anywhere in the graph made
 * rolldown drop the entry's `isEntry` from the manifest under this build's code-splitting groups
 * (scripts/bundle-size.ts and the signed-in preload read it). The check goes on in the
 * background instead: `supportsWebCodecsH264Decode` is a live binding, false until it answers,
 * and only decides whether noVNC offers H.264, which QEMU's VNC server never sends. A noVNC whose
 * file no longer has the statement fails the build, so an upgrade is looked at.
 */
export function noVncWithoutTopLevelAwait(): Plugin {
  return {
    name: 'tradehost-novnc-without-top-level-await',
    transform(code, id) {
      if (!id.replaceAll('\\', '/').endsWith('/@novnc/novnc/core/util/browser.js')) return null;
      if (!code.includes(NOVNC_AWAIT)) throw new Error(`noVNC's ${id} no longer has its await`);
      return code.replace(
        NOVNC_AWAIT,
        '_checkWebCodecsH264DecodeSupport().then((supported) => { supportsWebCodecsH264Decode = supported; });',
      );
    },
  };
}
