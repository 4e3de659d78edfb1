/**
 * `imprint team signing-key <team> --p12 <file>`: the team's document signing key, held by the
 * service so API requests and jobs can ask for `sign: true`. The file is opened here (its
 * password from --p12-password or IMPRINT_SIGN_PASSWORD), its key and certificates sealed
 * with the server's secret (IMPRINT_SECRET, the same one `imprint serve` runs with) and stored;
 * what is printed is the certificate's subject and expiry, never the key.
 */
import type { Command } from 'commander';
import type { Store } from '../../core/store/index.js';
import { ImprintError } from '../../core/errors.js';
import { guideFile } from '../../core/guides.js';
import { envText } from '../../backend/environment.js';
import type { CliContext } from '../context.js';
import { readBinaryInput } from '../io/read-input.js';
import { done, note } from '../ui/status.js';

interface SigningKeyFlags {
  p12?: string;
  p12Password?: string;
  remove?: boolean;
}

export function registerSigningKey(team: Command, store: () => Promise<Store>, context: () => CliContext) {
  team
    .command('signing-key')
    .description("store the team's document signing key (PKCS#12), sealed with IMPRINT_SECRET, for requests and jobs with sign: true; without --p12, show which certificate it holds")
    .argument('<name>', 'team name')
    .option('--p12 <file>', 'the PKCS#12 (.p12/.pfx) file: private key, certificate and CA chain; replaces the key the team had')
    .option('--p12-password <password>', "the file's password (better: IMPRINT_SIGN_PASSWORD)")
    .option('--remove', "forget the team's signing key: requests with sign are refused from now on")
    .addHelpText(
      'after',
      [
        '',
        'The key is stored encrypted (AES-256-GCM) under IMPRINT_SECRET, which `imprint serve` needs too (the',
        'same value): the database and its backups hold no usable key. No endpoint, log line or dashboard page',
        `shows it. See ${guideFile('finishing')} ("Signatures").`,
        '',
        'Examples:',
        '  $ export IMPRINT_SECRET="$(openssl rand -base64 32)"   # once, kept with the service\'s other secrets',
        '  $ IMPRINT_SIGN_PASSWORD=... imprint team signing-key acme --p12 acme.p12',
        '  $ imprint team signing-key acme            # which certificate, until when',
        '  $ imprint team signing-key acme --remove',
      ].join('\n'),
    )
    .action(async (name: string, flags: SigningKeyFlags) => {
      const opened = await store();
      const found = await opened.getTeam(name);
      if (!found) throw new ImprintError('NOT_FOUND', `No team named "${name}". Check the name (\`imprint team list\`), or create the team first.`);
      if (flags.remove) {
        if (flags.p12 !== undefined) throw new ImprintError('USAGE', '--remove and --p12 cannot be combined: --p12 alone replaces the key.');
        done((await opened.removeSigningKey(found.id)) ? `Team ${name}'s signing key is forgotten.` : `Team ${name} had no signing key.`);
        return;
      }
      if (flags.p12 === undefined) {
        const stored = await opened.getSigningKey(found.id);
        if (!stored) note(`Team ${name} has no signing key. Store one with \`imprint team signing-key ${name} --p12 <file>\`.`);
        else process.stdout.write(`${JSON.stringify({ team: name, subject: stored.subject, notAfter: stored.notAfter, storedAt: stored.createdAt })}\n`);
        return;
      }
      const env = context().env;
      const [{ readPkcs12 }, { sealSigningKey, serverSecret, signingKeyFacts }] = await Promise.all([import('../../core/pdf/sign/signing-key.js'), import('../../core/pdf/sign/sealed-key.js')]);
      const secret = serverSecret(env, 'Storing a signing key');
      const key = readPkcs12(await readBinaryInput(flags.p12, 'signing key'), flags.p12Password ?? envText(env, 'IMPRINT_SIGN_PASSWORD') ?? '', flags.p12, '--p12-password or IMPRINT_SIGN_PASSWORD');
      const facts = signingKeyFacts(key);
      await opened.setSigningKey(found.id, { sealed: sealSigningKey(key, secret, found.id), ...facts });
      done(`Team ${name} signs with ${facts.subject} (valid until ${facts.notAfter}) when a request or job asks for sign: true.`);
    });
}
