import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEV_MNEMONIC, deriveDevAccounts, derivedAccounts } from '../../src/genesis/dev-accounts.js';
import { DEV_ACCOUNT_TABLE } from '../../src/genesis/dev-accounts.generated.js';
import { createDevnetGenesis, evmChainIdFromChainId } from '../../src/genesis/devnet.js';
import { genesisFromJson, genesisToJson } from '../../src/genesis/genesis-doc.js';
import { startNode } from '../../src/node/node.js';

describe('devnet genesis', () => {
  it("derives the standard dev accounts (m/44'/60'/0'/0/i)", () => {
    const accts = deriveDevAccounts(10);
    expect(accts).toHaveLength(10);
    expect(accts[0]!.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(accts[0]!.privateKey).toBe('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    expect(accts[1]!.address).toBe('0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(accts[9]!.address).toBe('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720');
  });

  it("takes the dev mnemonic's accounts from a table that is its derivation (npm run dev-accounts --check)", () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    execFileSync(process.execPath, [`${root}/scripts/gen-dev-accounts.mjs`, '--check'], { cwd: root, stdio: 'pipe' });
    // The table against Chainlet's own derivation (OpenSSL PBKDF2 and HMAC, libsecp256k1), all 20.
    const derived = derivedAccounts(DEV_ACCOUNT_TABLE.length, DEV_MNEMONIC);
    expect(deriveDevAccounts(DEV_ACCOUNT_TABLE.length)).toEqual(derived);
    expect(deriveDevAccounts(3)).toEqual(derived.slice(0, 3));
    // Beyond the table, derived.
    const more = deriveDevAccounts(DEV_ACCOUNT_TABLE.length + 2);
    expect(more).toHaveLength(22);
    expect(more.slice(0, 20)).toEqual(derived);
    expect(more[21]!.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    // Fresh objects each time: a caller's change does not reach the next start.
    const a = deriveDevAccounts(1);
    a[0]!.address = 'changed';
    expect(deriveDevAccounts(1)[0]!.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
  });

  it('funds 10 accounts with 10 000 tokens under chain ids chainlet_9000-1 / 9000', () => {
    const { genesis, validatorKeys } = createDevnetGenesis({ validators: 4 });
    expect(genesis.chainId).toBe('chainlet_9000-1');
    expect(evmChainIdFromChainId(genesis.chainId)).toBe(9000);
    expect(validatorKeys).toHaveLength(4);
    const json = genesisToJson(genesis) as Record<string, any>;
    expect(json.initial_height).toBe('1');
    expect(json.consensus_params.block).toEqual({ max_bytes: '22020096', max_gas: '30000000' });
    expect(json.validators[0].pub_key.type).toBe('tendermint/PubKeyEd25519');
    expect(json.validators[0].power).toBe('10');
    expect(json.validators[0].address).toMatch(/^[0-9A-F]{40}$/);
    const evm = json.app_state.evm;
    expect(evm.chain_id).toBe('9000');
    expect(evm.decimals).toBe(18);
    expect(Object.keys(evm.alloc)).toHaveLength(10);
    expect(evm.alloc['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'].balance).toBe('10000000000000000000000');
  });

  it('round-trips through JSON and rejects bad documents with clear errors', () => {
    const { genesis } = createDevnetGenesis();
    const back = genesisFromJson(JSON.parse(JSON.stringify(genesisToJson(genesis))));
    expect(back.chainId).toBe(genesis.chainId);
    expect(back.genesisTime).toEqual(genesis.genesisTime);
    expect(back.validators[0]!.address).toEqual(genesis.validators[0]!.address);
    expect(() => genesisFromJson({})).toThrow(/non-empty chain_id/);
    const j = genesisToJson(genesis) as Record<string, any>;
    j.validators[0].power = '0';
    expect(() => genesisFromJson(j)).toThrow(/no voting power/);
  });
});

describe('startNode on a devnet', () => {
  it('funds the accounts of the mnemonic it is given', async () => {
    const mnemonic = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
    const node = await startNode({ devnet: { mnemonic, accounts: 3 }, servers: false });
    try {
      expect(node.accounts).toEqual(deriveDevAccounts(3, mnemonic));
      expect(node.accounts[0]!.address).not.toBe(deriveDevAccounts(1)[0]!.address);
      expect(node.height).toBe(1);
    } finally {
      await node.stop();
    }
  });

  it('refuses bad devnet options with the genesis error', async () => {
    await expect(startNode({ devnet: { validators: 0 }, servers: false })).rejects.toThrow('validators must be a positive integer, got 0');
  });
});

describe('genesis/devnet.json', () => {
  it('is what createDevnetGenesis() builds (but for the fixed genesis time)', async () => {
    const { readFileSync } = await import('node:fs');
    const file = JSON.parse(readFileSync(new URL('../../genesis/devnet.json', import.meta.url), 'utf8'));
    const built = genesisToJson(createDevnetGenesis({ genesisTime: { seconds: 1_767_225_600, nanos: 0 } }).genesis);
    expect(JSON.parse(JSON.stringify(built))).toEqual(file);
    expect(genesisFromJson(file).chainId).toBe('chainlet_9000-1');
  });
});
