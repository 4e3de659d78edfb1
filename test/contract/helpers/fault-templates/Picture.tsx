/** A caption and an image given in the props (a data: URL), so a test controls how large the PDF is. */
export default function Picture({ caption, src }: { caption: string; src: string }) {
  return (
    <main>
      <h1>{caption}</h1>
      <img src={src} alt="" />
    </main>
  );
}
