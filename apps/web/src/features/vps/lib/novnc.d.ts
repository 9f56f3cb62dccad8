/**
 * The part of noVNC's RFB class the web console uses (its API: docs/API.md of the package, which
 * ships no types). `@novnc/novnc` exports core/rfb.js, an ES module whose default is the class.
 */
declare module '@novnc/novnc' {
  export interface RfbOptions {
    shared?: boolean;
    wsProtocols?: string[];
  }

  export default class RFB extends EventTarget {
    constructor(target: HTMLElement, url: string, options?: RfbOptions);
    /** Scale the remote screen down (or up) to fit the target element. */
    scaleViewport: boolean;
    /** Ask the server to resize its screen to the element (off: the machine keeps its size). */
    resizeSession: boolean;
    /** Focus the screen when it is clicked, so the keyboard goes to the machine. */
    focusOnClick: boolean;
    /** The CSS background around a scaled screen. */
    background: string;
    disconnect(): void;
    sendCtrlAltDel(): void;
    /** Presses (down true), releases (false) or presses and releases (undefined) a key. */
    sendKey(keysym: number, code: string | null, down?: boolean): void;
    focus(options?: FocusOptions): void;
  }
}
