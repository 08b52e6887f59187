/** Limits of a web upload (the CLI has none): total size and number of files. */
export const MAX_UPLOAD_BYTES = 500 * 1024 * 1024;
export const MAX_FILES = 5000;
