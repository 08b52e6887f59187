/** Touch targets: at least 44 px where a finger taps (below md, 768 px); the compact size with a mouse. */
export const TAP = "min-h-11 min-w-11 md:min-h-0 md:min-w-0";
