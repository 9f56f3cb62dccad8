import type { OperationKind } from '@tradehost/contracts';
import type { Executor } from '../../db/client.ts';
import { vpsOperations } from '../../db/schema/index.ts';
import { AppError, isUniqueViolation } from '../../lib/errors.ts';

/**
 * Server operations: every hypervisor call for a server is a `vps_operations` row, written in the
 * transaction of the request that asks for it (with its charge, if any), then dispatched to the
 * job queue after commit. The partial unique index `vps_operations_one_active_key` allows one
 * queued or running operation per server, so two simultaneous requests cannot both start one.
 */

export type OperationRow = typeof vpsOperations.$inferSelect;

export interface NewOperation {
  serverId: number;
  kind: OperationKind;
  /** The user or operator who asked; null for the lifecycle. */
  actorId: number | null;
  payload?: Record<string, unknown>;
}

/**
 * Runs operations in the background. `dispatch` is called after the transaction that inserted
 * the operation has committed; dispatching one twice is harmless (the runner claims a queued
 * operation with a conditional UPDATE, and the lifecycle re-dispatches operations left queued).
 */
export interface OperationQueue {
  dispatch(operationId: number): Promise<void>;
}

/** Inserts a queued operation; 409 OPERATION_IN_PROGRESS when the server already has one. */
export async function insertOperation(tx: Executor, input: NewOperation): Promise<OperationRow> {
  try {
    const [row] = await tx
      .insert(vpsOperations)
      .values({
        serverId: input.serverId,
        kind: input.kind,
        actorId: input.actorId,
        payload: input.payload ?? {},
      })
      .returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error, 'vps_operations_one_active_key'))
      throw new AppError(409, 'OPERATION_IN_PROGRESS');
    throw error;
  }
}
