import type { Command } from 'commander';

/** `--help` examples of the server-side commands, by command path (applied by registerServerCommands). */
export const SERVER_EXAMPLES: Record<string, string[]> = {
  'db migrate': [
    'fos db migrate',
    'fos db migrate --db postgresql://127.0.0.1/fos',
    "fos db migrate --dry-run | jq -r '.pending[] | .sql'   # what a start would apply, changing nothing",
  ],
  'db backup': [
    'fos db backup /var/backups/fos-$(date -u +%Y%m%dT%H%M%SZ).tar.gz   # while fos serve runs',
    'fos db backup nightly.tar.gz --db /srv/fos/fos.db --storage /srv/fos/files',
  ],
  'db restore': ['FOS_DATA_DIR=/srv/fos-new fos db restore nightly.tar.gz   # into an empty data directory, then fos serve'],
  'db check': ['fos db check', 'fos db check --db postgresql://127.0.0.1/fos_restored'],
  'admin team create': ['fos admin team create --name "Acme Outdoor" --kind MERCHANT --measurement-system IMPERIAL'],
  'admin team list': ['fos admin team list', 'fos admin team list | jq -r \'.[] | select(.kind == "MERCHANT") | .id\''],
  'admin delegation create': ['fos admin delegation create --merchant <team-id> --fulfiller <team-id> --rate-card card.json'],
  'admin delegation list': ['fos admin delegation list --team <team-id>'],
  'admin warehouse create': ['fos admin warehouse create --team <team-id> --name "Leeds DC" --country GB --city Leeds --zip LS1'],
  'admin warehouse list': ['fos admin warehouse list --team <team-id>'],
  'admin products dedupe': [
    'fos admin products dedupe --db ./fos.db            # products sharing a SKU (ignoring case) within a team',
    'fos admin products dedupe --merge --db ./fos.db    # fold each group into its oldest product, then start fos serve',
  ],
  'admin warehouse time-zone': ['fos admin warehouse time-zone <warehouse-id> America/Los_Angeles   # its day ends at local midnight'],
  'admin warehouse label-format': ['fos admin warehouse label-format <warehouse-id> ZPL   # thermal printers at this warehouse'],
  'admin location-type create': ['fos admin location-type create --team <team-id> --name Pallet'],
  'admin location-type list': ['fos admin location-type list --team <team-id>'],
  'admin role create': ['fos admin role create --team <team-id> --name packer --permission READ_ORDERS WRITE_FULFILLMENTS'],
  'admin key create': [
    'fos admin key create --team <team-id> --name ci --power-role ADMIN --tier 4',
    'fos admin key create --team <team-id> --name station-4 --role packer | jq -r .token > key.txt',
  ],
  'admin key list': ['fos admin key list --team <team-id>'],
  'admin key tier': ['fos admin key tier <key-id> 3'],
  'admin key disable': ['fos admin key disable <key-id>'],
  'admin user create': [
    'printf \'%s\\n\' "$PASSWORD" | fos admin user create --email pat@example.com --name Pat --team <team-id> --password-stdin',
  ],
  'admin user list': ['fos admin user list --team <team-id>'],
  'admin user disable': ['fos admin user disable pat@example.com'],
  'admin user add-to-team': ['fos admin user add-to-team pat@example.com --team <team-id> --power-role MEMBER --role packer'],
};

export function applyExamples(root: Command, examples: Record<string, string[]>): void {
  const walk = (cmd: Command, path: string) => {
    for (const sub of cmd.commands) {
      const p = path ? `${path} ${sub.name()}` : sub.name();
      const list = examples[p];
      if (list?.length) sub.addHelpText('after', `\nExamples:\n${list.map((e) => `  $ ${e}`).join('\n')}\n`);
      walk(sub, p);
    }
  };
  walk(root, '');
}
