/** The organization's item categories, read-only. */

export { CATEGORIES_IMPORT, categoriesByExternalId } from './import.js';
export { categoriesRoutes, categoryRead } from './routes.js';
export { copyCategoriesToSandbox, countCategories } from './sandbox.js';
export { CATEGORIES, type CategoryRow, insertCategoryRows } from './store.js';
