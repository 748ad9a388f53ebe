import type { Category, CategoryList } from '../../types.js';
import { firstPage, present } from './common.js';
import { item } from './items.js';

export const category: Category = present(item.category);
export const categoryList: CategoryList = firstPage([category], false);
