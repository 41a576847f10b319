import type { Response } from '../../../../types';
import { DocumentBuilder } from '../../document/builder';
import { buildDocument } from '../../document/documents';
import { routeUrl } from '../../document/links';
import { pageArgs } from '../../query/page';
import { parseCollectionQuery } from '../../query/read-query';
import { projectionFor } from '../../query/select';
import type { RestRequest } from '../../request';
import { collectionLinks } from './collection-links';
import { delegate, ok, readPage } from './shared';
import { loadApart } from './to-one-apart';
import { keepModelReadRule } from '../../../common/read-override';
import { refuseHiddenSort } from './hidden-sort';

/** GET /:type */
export async function listResources(req: RestRequest): Promise<Response> {
    const { model } = req.route;
    const { query, entries } = parseCollectionQuery(req, model);
    const args = { where: query.where, orderBy: query.orderBy, ...pageArgs(query.page), ...projectionFor(model, query.include, query.fields, req.config) };
    const { result: rows, total } = await readPage(
        req,
        query.page,
        async (db) => {
            await refuseHiddenSort(db, req, model, query.where, query.orderBy);
            const found = (await delegate(db, model).findMany(args)) as Record<string, unknown>[];
            await loadApart(db, model, found, query.include, query.fields, req.config);
            return found;
        },
        (rows) => rows,
        // counts only the records the pages can show (read-override.ts)
        (db) => delegate(db, model).count({ where: keepModelReadRule(model.def, query.where) }) as Promise<number>,
    );
    const builder = new DocumentBuilder(req.config.idDivider, query.fields, req.config.pageSize);
    const data = rows.map((row, i) => builder.resource(model, row, i, query.include));
    return ok(buildDocument(builder, data, { ...collectionLinks(routeUrl(req.route), entries, query.page, total) }, { included: query.include !== undefined, total }));
}
