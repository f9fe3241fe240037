// pdf-lib (~25 MiB of a process's memory) loads with the first document a server renders, not
// at start: most requests never make a PDF.
export const loadPdfLib = () => import('pdf-lib');
