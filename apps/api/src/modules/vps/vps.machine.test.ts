import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MachineMetricsPoint } from '../../integrations/hypervisor/index.ts';
import { pressureOf } from './vps.machine.service.ts';

const GB = 1024 ** 3;

/** A point with this CPU share and memory in use of 4 GB; null CPU: the machine was off. */
function point(cpu: number | null, memoryGb: number | null = 1): MachineMetricsPoint {
  return {
    at: new Date(0),
    cpu,
    memoryBytes: memoryGb === null ? null : memoryGb * GB,
    memoryTotalBytes: 4 * GB,
    netInBps: null,
    netOutBps: null,
    diskReadBps: null,
    diskWriteBps: null,
  };
}

describe('whether a server is near its limits', () => {
  it('judges the last quarter of the measured points, by their average', () => {
    // eight points: the last two count; CPU (0.88 + 0.92) / 2 = 0.90 is at the line
    const busy = [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.88, 0.92].map((cpu) => point(cpu));
    expect(pressureOf(busy)).toEqual({ cpu: true, memory: false });
    // (0.88 + 0.91) / 2 = 0.895: under it
    const under = [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.88, 0.91].map((cpu) => point(cpu));
    expect(pressureOf(under).cpu).toBe(false);
    // a busy start long past does not count
    const past = [1, 1, 1, 1, 1, 1, 0.2, 0.2].map((cpu) => point(cpu));
    expect(pressureOf(past).cpu).toBe(false);
  });

  it('counts memory in use against the machine’s memory', () => {
    // 3.6 of 4 GB = 0.9 on the last quarter (one point of four)
    const full = [point(0.1, 1), point(0.1, 1), point(0.1, 1), point(0.1, 3.6)];
    expect(pressureOf(full)).toEqual({ cpu: false, memory: true });
    expect(pressureOf([point(0.1, 1), point(0.1, 3.5)]).memory).toBe(false);
  });

  it('leaves out the points where the machine was off, and says nothing without figures', () => {
    // the quarter of the three measured points is the last measured one, not the gap after it
    const thenOff = [point(0.2), point(0.2), point(0.95), point(null, null), point(null, null)];
    expect(pressureOf(thenOff).cpu).toBe(true);
    expect(pressureOf([])).toEqual({ cpu: false, memory: false });
    expect(pressureOf([point(null, null), point(null, null)])).toEqual({
      cpu: false,
      memory: false,
    });
  });
});

describe('whether a server is near its limits, over generated loads', () => {
  const measured = fc.array(
    fc.record({
      cpu: fc.double({ min: 0, max: 1, noNaN: true }),
      memory: fc.double({ min: 0, max: 4, noNaN: true }),
    }),
    { maxLength: 80 },
  );

  it('does not change when the machine was off in between (off points carry no load)', () => {
    fc.assert(
      fc.property(measured, fc.array(fc.nat(), { maxLength: 10 }), (loads, gaps) => {
        const points = loads.map((l) => point(l.cpu, l.memory));
        const withGaps = [...points];
        for (const gap of gaps) withGaps.splice(gap % (withGaps.length + 1), 0, point(null, null));
        expect(pressureOf(withGaps)).toEqual(pressureOf(points));
      }),
    );
  });

  it('never stops being busy when every figure grows', () => {
    fc.assert(
      fc.property(measured, fc.double({ min: 0, max: 1, noNaN: true }), (loads, more) => {
        const before = pressureOf(loads.map((l) => point(l.cpu, l.memory)));
        const after = pressureOf(
          loads.map((l) => point(l.cpu + (1 - l.cpu) * more, l.memory + (4 - l.memory) * more)),
        );
        if (before.cpu) expect(after.cpu).toBe(true);
        if (before.memory) expect(after.memory).toBe(true);
      }),
    );
  });
});
