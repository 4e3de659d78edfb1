/** The batch's file names follow the one rule jobs on the service follow too (core). */
export * from '../../core/file-name-pattern.js';
