// The operations' .graphql files are bundled as their text (esbuild's text loader).
declare module '*.graphql' {
  const document: string;
  export default document;
}

// The stylesheet is bundled beside the script (esbuild writes console.css).
declare module '*.css' {}
