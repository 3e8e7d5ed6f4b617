// Size limits on what a script may build. The limits of a run, and what it has
// allocated so far, live on its thread (../thread.ts), which checks them.

export interface SizeLimits {
  /** max length in bytes of a string or bytes value built by a script */
  maxStringBytes: number;
  /** max number of elements of a list, tuple, dict or set built by a script */
  maxElements: number;
  /**
   * budget for bulk allocations in one run (init or call), in bytes (8 per
   * element): repetition, concatenation, join, replace and formatting of large
   * values. With the step budget this bounds the memory a script can take.
   */
  maxAllocBytes: number;
}

export const DEFAULT_SIZE_LIMITS: SizeLimits = { maxStringBytes: 16 << 20, maxElements: 1_000_000, maxAllocBytes: 256 << 20 };
