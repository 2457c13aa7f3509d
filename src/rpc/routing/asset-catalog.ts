/**
 * The network's asset catalog, read live from its chains (no registry file): every face's assets,
 * with a voucher's origin (chain, asset, decimals) resolved by walking its trace over the network's
 * IBC paths. An IBC transfer moves an asset over the channel between two chains: it becomes
 * `ibc/<SHA-256 of transfer/<dest channel>/<path>>`, or unwinds one hop when it goes back through
 * the channel it came by (home: the native denom again).
 */
import { denomAfterHop, type Hop } from '../../ibc/keys.js';
import { hopsOf, voucherShell, type AssetInfo } from './assets.js';
import { resolveChain, type ChainType } from './chains.js';
import { ibcChannel, type RoutingChain, type RoutingEnv } from './env.js';

interface Face {
  id: string;
  type: ChainType;
  rc: RoutingChain;
}

function facesOf(rc: RoutingChain): Face[] {
  const ids = [rc.chain.cosmosChainId, rc.chain.evmChainId].filter((id, i, a) => id !== '' && a.indexOf(id) === i);
  return ids.flatMap((id) => {
    const type = rc.face(id);
    return type ? [{ id, type, rc }] : [];
  });
}

const isNativeAsset = (a: AssetInfo): boolean => a.trace === '' && a.token_contract === null && a.origin_chain_id === a.chain_id;

/** The network's assets, face by face, with vouchers' origins resolved; built per request. */
export class AssetCatalog {
  private constructor(
    private readonly env: Pick<RoutingEnv, 'chains' | 'ibcPaths'>,
    readonly faces: readonly Face[],
    private readonly byFace: Map<string, AssetInfo[]>,
  ) {}

  static async load(env: Pick<RoutingEnv, 'chains' | 'ibcPaths'>, baseUrl: string): Promise<AssetCatalog> {
    const faces = env.chains.flatMap(facesOf);
    const byFace = new Map<string, AssetInfo[]>(faces.map((f) => [f.id, []]));
    for (const rc of env.chains) {
      for (const a of rc.assets ? await rc.assets() : []) {
        const logo = a.logo_uri?.startsWith('/') ? `${baseUrl}${a.logo_uri}` : a.logo_uri;
        byFace.get(a.chain_id)?.push({ ...a, logo_uri: logo });
      }
    }
    const catalog = new AssetCatalog(env, faces, byFace);
    for (const [id, list] of byFace)
      byFace.set(
        id,
        list.map((a) => (a.trace !== '' ? catalog.resolveVoucher(a) : a)),
      );
    return catalog;
  }

  /** The face a chain id names; throws `chain ID not supported` (code 5) otherwise. */
  face(chainId: string): Face {
    const { chain, type } = resolveChain(this.env, chainId);
    return { id: chainId, type, rc: chain };
  }

  assetsOf(faceId: string): AssetInfo[] {
    return this.byFace.get(faceId) ?? [];
  }

  /** An asset of a face by denom: exact, an `ibc/` hash or 0x address in any case, or the native denom's aliases. */
  find(faceId: string, denom: string): AssetInfo | undefined {
    const list = this.assetsOf(faceId);
    const exact = list.find((a) => a.denom === denom);
    if (exact) return exact;
    // Hex in a voucher's hash or a contract address is case-insensitive; other denoms are not.
    if (/^(?:ibc\/|0x)/i.test(denom)) {
      const lower = denom.toLowerCase();
      const loose = list.find((a) => /^(?:ibc\/|0x)/i.test(a.denom) && a.denom.toLowerCase() === lower);
      if (loose) return loose;
    }
    const rc = this.byFaceChain(faceId);
    if (rc && (denom === rc.chain.denom || denom === `${rc.chain.chainName}-native`)) return list.find(isNativeAsset);
    return undefined;
  }

  private byFaceChain(faceId: string): RoutingChain | undefined {
    return this.faces.find((f) => f.id === faceId)?.rc;
  }

  /** The chain a trace leads back to from `chainId` over the IBC paths; undefined when a hop is not one of them. */
  private walk(chainId: string, hops: readonly Hop[]): string | undefined {
    let cur = chainId;
    for (const h of hops) {
      const p = (this.env.ibcPaths ?? []).find((x) => (x.chainA === cur && x.channelA === h.channelId) || (x.chainB === cur && x.channelB === h.channelId));
      if (!p || h.portId !== 'transfer') return undefined;
      cur = p.chainA === cur && p.channelA === h.channelId ? p.chainB : p.chainA;
    }
    return cur;
  }

  /** A voucher with its origin chain and its origin asset's metadata (decimals, symbol…). */
  private resolveVoucher(v: AssetInfo): AssetInfo {
    const hops = hopsOf(v.trace);
    const originChainId =
      this.walk(v.chain_id, hops) ?? this.env.chains.find((c) => c.chain.denom === v.origin_denom)?.chain.cosmosChainId ?? v.origin_chain_id;
    const origin = originChainId ? this.assetsOf(originChainId).find((a) => a.trace === '' && a.denom === v.origin_denom) : undefined;
    if (!origin) return { ...v, origin_chain_id: originChainId };
    return {
      ...v,
      origin_chain_id: originChainId,
      symbol: origin.symbol,
      name: origin.name,
      logo_uri: origin.logo_uri,
      decimals: origin.decimals,
      description: origin.description,
      recommended_symbol: origin.recommended_symbol,
    };
  }

  /** The asset `a` is on another face of its own chain (only the native denom has two faces). */
  private onFace(a: AssetInfo, faceId: string): AssetInfo | undefined {
    if (a.chain_id === faceId) return a;
    const from = this.byFaceChain(a.chain_id);
    if (!from || from !== this.byFaceChain(faceId) || !isNativeAsset(a)) return undefined;
    return this.assetsOf(faceId).find(isNativeAsset);
  }

  /**
   * What `a` becomes on the face `destId` after one IBC transfer (port `transfer`), or undefined
   * when no channel joins the two chains or the asset cannot cross (an ERC20, an SPL mint).
   */
  transfer(a: AssetInfo, destId: string): AssetInfo | undefined {
    const src = this.byFaceChain(a.chain_id);
    const dst = this.byFaceChain(destId);
    if (!src || !dst || src === dst) return undefined;
    // Both ends move bank coins: the asset as its chain's Cosmos face holds it.
    const bank = this.onFace(a, src.chain.cosmosChainId);
    if (!bank || bank.token_contract !== null || bank.is_cw20) return undefined;
    const ch = ibcChannel(this.env.ibcPaths, src.chain.cosmosChainId, dst.chain.cosmosChainId);
    if (!ch) return undefined;
    const next = denomAfterHop(
      { base: bank.origin_denom, trace: hopsOf(bank.trace) },
      { portId: 'transfer', channelId: ch.channel },
      { portId: 'transfer', channelId: ch.counterparty },
    ).denom.trace;
    const destCosmos = dst.chain.cosmosChainId;
    let arrived: AssetInfo | undefined;
    if (next.length === 0) {
      arrived = this.assetsOf(destCosmos).find((x) => x.trace === '' && x.denom === bank.origin_denom) ?? {
        ...bank,
        denom: bank.origin_denom,
        chain_id: destCosmos,
        origin_chain_id: destCosmos,
        trace: '',
      };
    } else {
      const shell = voucherShell(destCosmos, bank.origin_denom, next);
      arrived = this.assetsOf(destCosmos).find((x) => x.denom === shell.denom) ?? this.resolveVoucher(shell);
    }
    return this.onFace(arrived, destId);
  }

  /** What `a` is on the face `destId`: itself or its other face on its own chain, else what one IBC transfer makes of it. */
  reach(a: AssetInfo, destId: string): AssetInfo | undefined {
    const src = this.byFaceChain(a.chain_id);
    return src !== undefined && src === this.byFaceChain(destId) ? this.onFace(a, destId) : this.transfer(a, destId);
  }

  /** The asset `a` stands for on its origin chain. */
  origin(a: AssetInfo): AssetInfo | undefined {
    if (a.trace === '') return a;
    if (a.origin_chain_id === '') return undefined;
    const known = this.byFace.has(a.origin_chain_id) ? this.assetsOf(a.origin_chain_id).find((x) => x.trace === '' && x.denom === a.origin_denom) : undefined;
    return known ?? { ...a, denom: a.origin_denom, chain_id: a.origin_chain_id, trace: '' };
  }
}

/** Every asset of the network, face by face (chain id → assets), vouchers resolved. */
export async function networkAssets(env: Pick<RoutingEnv, 'chains' | 'ibcPaths'>, baseUrl = ''): Promise<Map<string, AssetInfo[]>> {
  const c = await AssetCatalog.load(env, baseUrl);
  return new Map(c.faces.map((f) => [f.id, c.assetsOf(f.id)]));
}
