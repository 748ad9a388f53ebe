import type { Warehouse, WarehouseList } from '../../types.js';
import { firstPage } from './common.js';
import { item } from './items.js';

export const warehouse: Warehouse = {
  id: item.location.warehouseId,
  name: 'Main store',
  isDefault: true,
  zones: [
    { id: item.location.zoneId, name: 'Showroom cases' },
    { id: '3c0f1f0e-51d6-4d8f-a7b2-9a1c2b7c0d55', name: 'Vault' },
  ],
};
export const warehouseList: WarehouseList = firstPage([warehouse], false);
