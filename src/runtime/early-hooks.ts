/**
 * What the page runtime must install before the template and react-dom load: the bundle
 * imports this module first (bundle-template.ts).
 */
import './react-activity.js';
import './frame-demand.js';
