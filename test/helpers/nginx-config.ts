/**
 * nginx in front of `imprint serve` nodes: the one function that writes the site
 * configuration docs/deploy.md shows (a test checks the doc's block is this function's text
 * for the doc's example values) and the multi-node tests run (test/helpers/nginx.ts wraps it
 * in a main context of its own: pid, logs and temp paths in a temporary folder).
 */
export interface ImprintSiteOptions {
  /** host:port of each node. */
  nodes: readonly string[];
  /** What nginx listens on: "127.0.0.1:8080", "80"... */
  listen: string;
  /** The largest body a client sends: `imprint serve --max-upload-size` (50 MiB by default), in nginx's units. */
  maxBodySize?: string;
  /** Longer than the nodes' --render-timeout (30 s by default), a render's wait for a slot included. */
  readTimeout?: string;
}

/** The site: an upstream of the nodes and a server that passes every request to one of them. */
export function imprintSiteConfig(options: ImprintSiteOptions): string {
  const { nodes, listen, maxBodySize = '50m', readTimeout = '60s' } = options;
  return `upstream imprint {
    # A render holds its connection for its whole duration: send each new request to the
    # node with the fewest in progress.
    least_conn;
${nodes.map((node) => `    server ${node} max_fails=1 fail_timeout=5s;`).join('\n')}
    # Idle connections to the nodes are kept, and dropped before a node would close them
    # (--keep-alive-timeout, 5 s by default): a request sent on a connection the node is
    # closing fails, and a publish is not retried.
    keepalive 32;
    keepalive_timeout 4s;
}

server {
    listen ${listen};

    # Published template bundles are the largest bodies (--max-upload-size); the nodes
    # answer 413 with their own error object above their own limits.
    client_max_body_size ${maxBodySize};
    client_body_buffer_size 1m;

    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $remote_addr;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_connect_timeout 2s;
    proxy_send_timeout ${readTimeout};
    proxy_read_timeout ${readTimeout};

    # Retry on another node when one refuses the connection (it died, or it is shutting
    # down and no longer accepts) or does not accept it in time. A node's own answers pass
    # through, 503s included: DRAINING and DATABASE_UNAVAILABLE carry their code and
    # Retry-After, and every node shares the one database. nginx never retries a request it
    # has sent unless told so; publishing is not retried, as a publish that reached its node
    # may have made a version.
    proxy_next_upstream error timeout;
    proxy_next_upstream_tries 3;

    # Renders (A1, A2): also retried when the node died after the request was sent
    # (non_idempotent). A render that was not answered delivered nothing, and its reservation
    # of the team's count is given back after --reservation-lease.
    location ~ ^/api/(documents/|generate$) {
        proxy_pass http://imprint;
        proxy_next_upstream error timeout non_idempotent;
    }

    location / {
        proxy_pass http://imprint;
    }

    # nginx's own answers (no node reachable; the node died and no other took the request;
    # no answer in time) as the API's error object, without a code: it did not come from a
    # node. The nodes' own answers, 504 RENDER_TIMEOUT included, pass through untouched.
    error_page 502 @imprint_502;
    error_page 504 @imprint_504;
    location @imprint_502 {
        default_type application/json;
        return 502 '{"error":"No Imprint node could answer this request: the node died or none is reachable. Nothing was delivered; try again in a few seconds."}';
    }
    location @imprint_504 {
        default_type application/json;
        return 504 '{"error":"The Imprint node did not answer in time. Try again; if it persists, the operator should look at the nodes."}';
    }
}
`;
}

/** The example of docs/deploy.md: two nodes on this machine, nginx on port 8080. */
export const DOC_EXAMPLE: ImprintSiteOptions = { nodes: ['127.0.0.1:8081', '127.0.0.1:8082'], listen: '127.0.0.1:8080' };

export interface StandaloneOptions {
  /** A folder of the caller's: pid file, logs and nginx's temp folders go there. */
  runDir: string;
  /** Run the workers as root (nginx started by root runs them as `nobody` otherwise, who cannot write runDir). */
  workersAsRoot: boolean;
}

/**
 * A whole nginx.conf around the site for `nginx -c <file> -g 'daemon off;'`: nothing outside
 * runDir is written, so it runs beside (never as) a system nginx.
 */
export function standaloneNginxConfig(site: string, options: StandaloneOptions): string {
  const { runDir } = options;
  return `${options.workersAsRoot ? 'user root;\n' : ''}worker_processes 1;
pid ${runDir}/nginx.pid;
error_log ${runDir}/error.log warn;

events {
    worker_connections 1024;
}

http {
    access_log ${runDir}/access.log;
    client_body_temp_path ${runDir}/client_body;
    proxy_temp_path ${runDir}/proxy;
    fastcgi_temp_path ${runDir}/fastcgi;
    uwsgi_temp_path ${runDir}/uwsgi;
    scgi_temp_path ${runDir}/scgi;

${site
  .split('\n')
  .map((line) => (line ? `    ${line}` : line))
  .join('\n')}
}
`;
}
