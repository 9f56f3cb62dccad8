import type { Config } from '../../config.ts';
import type { Executor } from '../../db/client.ts';
import type { Hypervisor, MachineId } from './port.ts';
import { createProxmoxHypervisor } from './proxmox.ts';
import { createSimulatedHypervisor } from './simulated.ts';

export * from './port.ts';
// what a terminal guardian looks for and runs in a guest (the template ships the task)
export { START_TERMINALS_TASK, TERMINAL_IMAGE } from './windows-guest.ts';

/** The hypervisor the configuration names: Proxmox VE, or the simulated one (the default). */
export function createHypervisor(config: Config, db: Executor): Hypervisor {
  if (config.vps.hypervisor === 'proxmox') {
    if (!config.vps.proxmox)
      throw new Error('HYPERVISOR_DRIVER=proxmox needs the PROXMOX_* settings');
    return createProxmoxHypervisor(config.vps.proxmox);
  }
  return createSimulatedHypervisor(db, { delayMs: config.vps.simDelayMs });
}

export const RDP_PORT = 3389;

/**
 * Where a user reaches a machine by RDP. Simulated machines get an address of the documentation
 * range 203.0.113.0/24 (RFC 5737, never routed); a Proxmox machine is reached through the RDP
 * host's port rdpPortBase + VMID (a NAT or proxy forwarding to the guest's 3389).
 */
export function machineAddress(
  config: Config,
  machineId: MachineId,
): { host: string; port: number } {
  const id = Number(machineId);
  if (!Number.isSafeInteger(id) || id < 0) throw new Error(`not a machine id: ${machineId}`);
  if (config.vps.hypervisor === 'proxmox') {
    const proxmox = config.vps.proxmox;
    if (!proxmox) throw new Error('HYPERVISOR_DRIVER=proxmox needs the PROXMOX_* settings');
    const port = proxmox.rdpPortBase + id;
    if (port > 65_535)
      throw new Error(
        `PROXMOX_RDP_PORT_BASE ${proxmox.rdpPortBase} + VMID ${id} is past the last port (65535)`,
      );
    return { host: proxmox.rdpHost, port };
  }
  return { host: `203.0.113.${1 + (id % 254)}`, port: RDP_PORT };
}
