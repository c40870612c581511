// Stylesheets imported for their effect: esbuild bundles them into the one .css file index.html links.
declare module '*.css'
