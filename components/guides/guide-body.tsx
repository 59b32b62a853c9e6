import { MDXRemote } from "next-mdx-remote/rsc";
import remarkGfm from "remark-gfm";
import { guideMdxComponents } from "./mdx-components";

/**
 * A guide's MDX body, compiled on the server. GFM for the tables; JavaScript expressions stay
 * blocked (next-mdx-remote's default) because the guides need none.
 */
export function GuideBody({ source }: { source: string }) {
  return (
    <MDXRemote
      source={source}
      components={guideMdxComponents}
      options={{ mdxOptions: { remarkPlugins: [remarkGfm] } }}
    />
  );
}
