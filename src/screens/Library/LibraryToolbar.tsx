import styled from 'styled-components';
import { Button, SelectField, TextField } from '../../components/ui';
import {
  filterOptions,
  sortOptions,
  type LibraryBook,
  type LibraryFilter,
  type LibrarySort,
  type LibraryView,
} from '../../features/library';
import { PodcastFeedButton } from '../../features/podcast-feeds';

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: flex-end;
  gap: ${({ theme }) => theme.space(3)};
  margin-bottom: ${({ theme }) => theme.space(5)};
  > :first-child {
    flex: 1;
    min-width: 200px;
  }
`;

const Toggle = styled.div`
  display: flex;
  gap: ${({ theme }) => theme.space(1)};
`;

interface LibraryToolbarProps {
  books: readonly LibraryBook[];
  search: string;
  onSearch: (search: string) => void;
  filter: LibraryFilter;
  onFilter: (filter: LibraryFilter) => void;
  sort: LibrarySort;
  onSort: (sort: LibrarySort) => void;
  view: LibraryView;
  onView: (view: LibraryView) => void;
}

/** Above the shelf: search, the filter, the sort, grid or list, and the library's podcast feed. */
export function LibraryToolbar(props: LibraryToolbarProps) {
  const { books, search, filter, sort, view } = props;
  return (
    <Toolbar>
      <TextField label="Search books" type="search" value={search} onChange={(e) => props.onSearch(e.target.value)} />
      <SelectField
        label="Show"
        value={filter}
        options={filterOptions(books)}
        onChange={(e) => props.onFilter(e.target.value as LibraryFilter)}
      />
      <SelectField
        label="Sort by"
        value={sort}
        options={sortOptions}
        onChange={(e) => props.onSort(e.target.value as LibrarySort)}
      />
      <Toggle role="group" aria-label="View">
        <Button variant="secondary" aria-pressed={view === 'grid'} onClick={() => props.onView('grid')}>
          Grid
        </Button>
        <Button variant="secondary" aria-pressed={view === 'list'} onClick={() => props.onView('list')}>
          List
        </Button>
      </Toggle>
      {books.length > 0 && <PodcastFeedButton title="Your library" label="Library as a podcast" />}
    </Toolbar>
  );
}
