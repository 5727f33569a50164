#!/bin/bash

__places_cursor_index_in_current_word() {
    local remaining="${COMP_LINE}"

    local word
    for word in "${COMP_WORDS[@]::COMP_CWORD}"; do
        remaining="${remaining##*([[:space:]])"${word}"*([[:space:]])}"
    done

    local -ir index="$((COMP_POINT - ${#COMP_LINE} + ${#remaining}))"
    if [[ "${index}" -le 0 ]]; then
        printf 0
    else
        printf %s "${index}"
    fi
}

# positional arguments:
#
# - 1: the current (sub)command's count of positional arguments
#
# required variables:
#
# - repeating_flags: the repeating flags that the current (sub)command can accept
# - non_repeating_flags: the non-repeating flags that the current (sub)command can accept
# - repeating_options: the repeating options that the current (sub)command can accept
# - non_repeating_options: the non-repeating options that the current (sub)command can accept
# - positional_number: value ignored
# - unparsed_words: unparsed words from the current command line
#
# modified variables:
#
# - non_repeating_flags: remove flags for this (sub)command that are already on the command line
# - non_repeating_options: remove options for this (sub)command that are already on the command line
# - positional_number: set to the current positional number
# - unparsed_words: remove all flags, options, and option values for this (sub)command
__places_offer_flags_options() {
    local -ir positional_count="${1}"
    positional_number=0

    local was_flag_option_terminator_seen=false
    local is_parsing_option_value=false

    local -ar unparsed_word_indices=("${!unparsed_words[@]}")
    local -i word_index
    for word_index in "${unparsed_word_indices[@]}"; do
        if "${is_parsing_option_value}"; then
            # This word is an option value:
            # Reset marker for next word iff not currently the last word
            [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]] && is_parsing_option_value=false
            unset "unparsed_words[${word_index}]"
            # Do not process this word as a flag or an option
            continue
        fi

        local word="${unparsed_words["${word_index}"]}"
        if ! "${was_flag_option_terminator_seen}"; then
            case "${word}" in
            --)
                unset "unparsed_words[${word_index}]"
                # by itself -- is a flag/option terminator, but if it is the last word, it is the start of a completion
                if [[ "${word_index}" -ne "${unparsed_word_indices[${#unparsed_word_indices[@]} - 1]}" ]]; then
                    was_flag_option_terminator_seen=true
                fi
                continue
                ;;
            -*)
                # ${word} is a flag or an option
                # If ${word} is an option, mark that the next word to be parsed is an option value
                local option
                for option in "${repeating_options[@]}" "${non_repeating_options[@]}"; do
                    [[ "${word}" = "${option}" ]] && is_parsing_option_value=true && break
                done

                # Remove ${word} from ${non_repeating_flags} or ${non_repeating_options} so it isn't offered again
                local not_found=true
                local -i index
                for index in "${!non_repeating_flags[@]}"; do
                    if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                        unset "non_repeating_flags[${index}]"
                        non_repeating_flags=("${non_repeating_flags[@]}")
                        not_found=false
                        break
                    fi
                done
                if "${not_found}"; then
                    for index in "${!non_repeating_flags[@]}"; do
                        if [[ "${non_repeating_flags[${index}]}" = "${word}" ]]; then
                            unset "non_repeating_flags[${index}]"
                            non_repeating_flags=("${non_repeating_flags[@]}")
                            break
                        fi
                    done
                fi
                unset "unparsed_words[${word_index}]"
                continue
                ;;
            esac
        fi

        # ${word} is neither a flag, nor an option, nor an option value
        if [[ "${positional_number}" -lt "${positional_count}" || "${positional_count}" -lt 0 ]]; then
            # ${word} is a positional
            ((positional_number++))
            unset "unparsed_words[${word_index}]"
        else
            if [[ -z "${word}" ]]; then
                # Could be completing a flag, option, or subcommand
                positional_number=-1
            else
                # ${word} is a subcommand or invalid, so stop processing this (sub)command
                positional_number=-2
            fi
            break
        fi
    done

    unparsed_words=("${unparsed_words[@]}")

    if\
        ! "${was_flag_option_terminator_seen}"\
        && ! "${is_parsing_option_value}"\
        && [[ ("${cur}" = -* && "${positional_number}" -ge 0) || "${positional_number}" -eq -1 ]]
    then
        COMPREPLY+=($(compgen -W "${repeating_flags[*]} ${non_repeating_flags[*]} ${repeating_options[*]} ${non_repeating_options[*]}" -- "${cur}"))
    fi
}

__places_add_completions() {
    local completion
    while IFS='' read -r completion; do
        COMPREPLY+=("${completion}")
    done < <(IFS=$'\n' compgen "${@}" -- "${cur}")
}

__places_custom_complete() {
    if [[ -n "${cur}" || -z ${COMP_WORDS[${COMP_CWORD}]} || "${COMP_LINE:${COMP_POINT}:1}" != ' ' ]]; then
        local -ar words=("${COMP_WORDS[@]}")
    else
        local -ar words=("${COMP_WORDS[@]::${COMP_CWORD}}" '' "${COMP_WORDS[@]:${COMP_CWORD}}")
    fi

    "${COMP_WORDS[0]}" "${@}" "${words[@]}"
}

_places() {
    local state
    state="$(shopt -p;shopt -po)"
    trap "${state//$'\n'/;}" RETURN
    shopt -s extglob
    set +o history +o posix

    local -xr SAP_SHELL=bash
    local -x SAP_SHELL_VERSION
    SAP_SHELL_VERSION="$(IFS='.';printf %s "${BASH_VERSINFO[*]}")"
    local -r SAP_SHELL_VERSION

    local -r cur="${2}"
    local -r prev="${3}"

    local -i positional_number
    local -a unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")

    local -a repeating_flags=()
    local -a non_repeating_flags=(--version -h --help)
    local -a repeating_options=()
    local -a non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    init|login|logout|whoami|status|discover|place|favorite|itinerary|item|checklist|expense|traveller|activity|events|route|peers|invitations|contacts|share|join|members|unshare|friends|groups|post|feed|notifications|profile|photo|explore|saved|gui|help)
        # Offer subcommand argument completions
        "_places_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'init login logout whoami status discover place favorite itinerary item checklist expense traveller activity events route peers invitations contacts share join members unshare friends groups post feed notifications profile photo explore saved gui help' -- "${cur}"))
        ;;
    esac
}

_places_init() {
    repeating_flags=()
    non_repeating_flags=(--json --no-passphrase --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --name --username --bio --passphrase-file)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--name')
        return
        ;;
    '--username')
        return
        ;;
    '--bio')
        return
        ;;
    '--passphrase-file')
        return
        ;;
    esac
}

_places_login() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --passphrase-file)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--passphrase-file')
        return
        ;;
    esac
}

_places_logout() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_whoami() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_status() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_discover() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --kind --near --limit --sort)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--kind')
        return
        ;;
    '--near')
        return
        ;;
    '--limit')
        return
        ;;
    '--sort')
        __places_add_completions -W 'desc'$'\n''asc'$'\n''off'
        return
        ;;
    esac
}

_places_place() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list|show|edit|remove|import|export|photo)
        # Offer subcommand argument completions
        "_places_place_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list show edit remove import export photo' -- "${cur}"))
        ;;
    esac
}

_places_place_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--category)
    non_repeating_options=(--data-dir --socket --from-post --from-friend --lat --lon --in --address --price --rating --notes --url)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--from-post')
        return
        ;;
    '--from-friend')
        return
        ;;
    '--lat')
        return
        ;;
    '--lon')
        return
        ;;
    '--in')
        return
        ;;
    '--address')
        return
        ;;
    '--category')
        return
        ;;
    '--price')
        return
        ;;
    '--rating')
        return
        ;;
    '--notes')
        return
        ;;
    '--url')
        return
        ;;
    esac
}

_places_place_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_place_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_place_edit() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--category --clear)
    non_repeating_options=(--data-dir --socket --name --lat --lon --address --price --rating --notes --url)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--name')
        return
        ;;
    '--lat')
        return
        ;;
    '--lon')
        return
        ;;
    '--address')
        return
        ;;
    '--category')
        return
        ;;
    '--price')
        return
        ;;
    '--rating')
        return
        ;;
    '--notes')
        return
        ;;
    '--url')
        return
        ;;
    '--clear')
        __places_add_completions -W 'address'$'\n''categories'$'\n''price'$'\n''rating'$'\n''notes'$'\n''url'
        return
        ;;
    esac
}

_places_place_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_place_import() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --format)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--format')
        __places_add_completions -W 'geojson'$'\n''kml'$'\n''gpx'
        return
        ;;
    esac
}

_places_place_export() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --format -o --output)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--format')
        __places_add_completions -W 'geojson'$'\n''kml'$'\n''gpx'
        return
        ;;
    '-o'|'--output')
        return
        ;;
    esac
}

_places_place_photo() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|remove)
        # Offer subcommand argument completions
        "_places_place_photo_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add remove' -- "${cur}"))
        ;;
    esac
}

_places_place_photo_add() {
    repeating_flags=()
    non_repeating_flags=(--json --keep-location --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_place_photo_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_favorite() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list|move|remove|share)
        # Offer subcommand argument completions
        "_places_favorite_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list move remove share' -- "${cur}"))
        ;;
    esac
}

_places_favorite_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --position)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--position')
        return
        ;;
    esac
}

_places_favorite_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_favorite_move() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --to)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--to')
        return
        ;;
    esac
}

_places_favorite_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_favorite_share() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--only)
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--only')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    1)
        __places_add_completions -W 'on'$'\n''off'
        return
        ;;
    esac
}

_places_itinerary() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    create|list|show|days|check|export|edit|delete|add-place|remove-place|move-place|share|members|rates|publish|unpublish)
        # Offer subcommand argument completions
        "_places_itinerary_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'create list show days check export edit delete add-place remove-place move-place share members rates publish unpublish' -- "${cur}"))
        ;;
    esac
}

_places_itinerary_create() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--place)
    non_repeating_options=(--data-dir --socket --from --start --end --transport --lodging-name --lodging-address --check-in --check-out --travel-price --lodging-price --currency --notes --tz --travel-mode)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--from')
        return
        ;;
    '--start')
        return
        ;;
    '--end')
        return
        ;;
    '--transport')
        return
        ;;
    '--lodging-name')
        return
        ;;
    '--lodging-address')
        return
        ;;
    '--check-in')
        return
        ;;
    '--check-out')
        return
        ;;
    '--travel-price')
        return
        ;;
    '--lodging-price')
        return
        ;;
    '--currency')
        return
        ;;
    '--notes')
        return
        ;;
    '--tz')
        return
        ;;
    '--travel-mode')
        __places_add_completions -W 'walking'$'\n''cycling'$'\n''driving'
        return
        ;;
    '--place')
        return
        ;;
    esac
}

_places_itinerary_list() {
    repeating_flags=()
    non_repeating_flags=(--json --mine --shared --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_itinerary_show() {
    repeating_flags=()
    non_repeating_flags=(--json --plain --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --day)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--day')
        return
        ;;
    esac
}

_places_itinerary_days() {
    repeating_flags=()
    non_repeating_flags=(--json --plain --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_itinerary_check() {
    repeating_flags=()
    non_repeating_flags=(--json --plain --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_itinerary_export() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --format -o --output)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--format')
        __places_add_completions -W 'ics'$'\n''geojson'
        return
        ;;
    '-o'|'--output')
        return
        ;;
    esac
}

_places_itinerary_edit() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--clear)
    non_repeating_options=(--data-dir --socket --name --start --end --transport --lodging-name --lodging-address --check-in --check-out --travel-price --lodging-price --currency --notes --tz --travel-mode --settlement-currency)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--name')
        return
        ;;
    '--start')
        return
        ;;
    '--end')
        return
        ;;
    '--transport')
        return
        ;;
    '--lodging-name')
        return
        ;;
    '--lodging-address')
        return
        ;;
    '--check-in')
        return
        ;;
    '--check-out')
        return
        ;;
    '--travel-price')
        return
        ;;
    '--lodging-price')
        return
        ;;
    '--currency')
        return
        ;;
    '--notes')
        return
        ;;
    '--tz')
        return
        ;;
    '--travel-mode')
        __places_add_completions -W 'walking'$'\n''cycling'$'\n''driving'
        return
        ;;
    '--clear')
        __places_add_completions -W 'start'$'\n''end'$'\n''transport'$'\n''lodging'$'\n''lodging-name'$'\n''lodging-address'$'\n''check-in'$'\n''check-out'$'\n''travel-price'$'\n''lodging-price'$'\n''notes'$'\n''tz'$'\n''travel-mode'
        return
        ;;
    '--settlement-currency')
        return
        ;;
    esac
}

_places_itinerary_delete() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_itinerary_add-place() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --position)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--position')
        return
        ;;
    esac
}

_places_itinerary_remove-place() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_itinerary_move-place() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --to)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--to')
        return
        ;;
    esac
}

_places_itinerary_share() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --with --role)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--with')
        return
        ;;
    '--role')
        return
        ;;
    esac
}

_places_itinerary_members() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_itinerary_rates() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--set --remove)
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--set')
        return
        ;;
    '--remove')
        return
        ;;
    esac
}

_places_itinerary_publish() {
    repeating_flags=()
    non_repeating_flags=(--json --dry-run --plain --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --to)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--to')
        return
        ;;
    esac
}

_places_itinerary_unpublish() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_item() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list|show|edit|remove|move)
        # Offer subcommand argument completions
        "_places_item_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list show edit remove move' -- "${cur}"))
        ;;
    esac
}

_places_item_add() {
    repeating_flags=()
    non_repeating_flags=(--json --booked --no-booked --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --start --end --tz --end-tz --at --address --lat --lon --to --to-address --to-lat --to-lon --price --notes --url --code --contact --mode --carrier --number --booking --recommendation --rating --description --link)
    __places_offer_flags_options 3

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--start')
        return
        ;;
    '--end')
        return
        ;;
    '--tz')
        return
        ;;
    '--end-tz')
        return
        ;;
    '--at')
        return
        ;;
    '--address')
        return
        ;;
    '--lat')
        return
        ;;
    '--lon')
        return
        ;;
    '--to')
        return
        ;;
    '--to-address')
        return
        ;;
    '--to-lat')
        return
        ;;
    '--to-lon')
        return
        ;;
    '--price')
        return
        ;;
    '--notes')
        return
        ;;
    '--url')
        return
        ;;
    '--code')
        return
        ;;
    '--contact')
        return
        ;;
    '--mode')
        __places_add_completions -W 'flight'$'\n''train'$'\n''bus'$'\n''car'$'\n''ferry'$'\n''other'
        return
        ;;
    '--carrier')
        return
        ;;
    '--number')
        return
        ;;
    '--booking')
        return
        ;;
    '--recommendation')
        return
        ;;
    '--rating')
        return
        ;;
    '--description')
        return
        ;;
    '--link')
        return
        ;;
    esac

    # Offer positional completions
    case "${positional_number}" in
    2)
        __places_add_completions -W 'lodging'$'\n''transport'$'\n''food'$'\n''activity'
        return
        ;;
    esac
}

_places_item_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --type)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--type')
        __places_add_completions -W 'lodging'$'\n''transport'$'\n''food'$'\n''activity'
        return
        ;;
    esac
}

_places_item_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_item_edit() {
    repeating_flags=()
    non_repeating_flags=(--json --booked --no-booked --version -h --help)
    repeating_options=(--clear)
    non_repeating_options=(--data-dir --socket --title --start --end --tz --end-tz --at --address --lat --lon --to --to-address --to-lat --to-lon --price --notes --url --code --contact --mode --carrier --number --booking --recommendation --rating --description --link)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--title')
        return
        ;;
    '--start')
        return
        ;;
    '--end')
        return
        ;;
    '--tz')
        return
        ;;
    '--end-tz')
        return
        ;;
    '--at')
        return
        ;;
    '--address')
        return
        ;;
    '--lat')
        return
        ;;
    '--lon')
        return
        ;;
    '--to')
        return
        ;;
    '--to-address')
        return
        ;;
    '--to-lat')
        return
        ;;
    '--to-lon')
        return
        ;;
    '--price')
        return
        ;;
    '--notes')
        return
        ;;
    '--url')
        return
        ;;
    '--code')
        return
        ;;
    '--contact')
        return
        ;;
    '--mode')
        __places_add_completions -W 'flight'$'\n''train'$'\n''bus'$'\n''car'$'\n''ferry'$'\n''other'
        return
        ;;
    '--carrier')
        return
        ;;
    '--number')
        return
        ;;
    '--booking')
        return
        ;;
    '--recommendation')
        return
        ;;
    '--rating')
        return
        ;;
    '--description')
        return
        ;;
    '--link')
        return
        ;;
    '--clear')
        __places_add_completions -W 'start'$'\n''end'$'\n''tz'$'\n''end-tz'$'\n''location'$'\n''at'$'\n''address'$'\n''coordinates'$'\n''to'$'\n''to-address'$'\n''to-coordinates'$'\n''price'$'\n''notes'$'\n''url'$'\n''code'$'\n''contact'$'\n''carrier'$'\n''number'$'\n''booking'$'\n''recommendation'$'\n''rating'$'\n''description'$'\n''link'
        return
        ;;
    esac
}

_places_item_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_item_move() {
    repeating_flags=()
    non_repeating_flags=(--json --plain --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --day --position)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--day')
        return
        ;;
    '--position')
        return
        ;;
    esac
}

_places_checklist() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|add|check|uncheck|assign|move|remove)
        # Offer subcommand argument completions
        "_places_checklist_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list add check uncheck assign move remove' -- "${cur}"))
        ;;
    esac
}

_places_checklist_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_checklist_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --list --assign)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--list')
        return
        ;;
    '--assign')
        return
        ;;
    esac
}

_places_checklist_check() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_checklist_uncheck() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_checklist_assign() {
    repeating_flags=()
    non_repeating_flags=(--json --none --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 3

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_checklist_move() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --to)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--to')
        return
        ;;
    esac
}

_places_checklist_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_expense() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|list|show|edit|remove|balances|settle|debts|pay|export)
        # Offer subcommand argument completions
        "_places_expense_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add list show edit remove balances settle debts pay export' -- "${cur}"))
        ;;
    esac
}

_places_expense_add() {
    repeating_flags=()
    non_repeating_flags=(--json --transfer --version -h --help)
    repeating_options=(--paid-by --among)
    non_repeating_options=(--data-dir --socket --split --date --category --item --rate)
    __places_offer_flags_options 4

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--paid-by')
        return
        ;;
    '--split')
        __places_add_completions -W 'equal'$'\n''shares'$'\n''exact'$'\n''percent'
        return
        ;;
    '--among')
        return
        ;;
    '--date')
        return
        ;;
    '--category')
        return
        ;;
    '--item')
        return
        ;;
    '--rate')
        return
        ;;
    esac
}

_places_expense_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --kind)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--kind')
        __places_add_completions -W 'expense'$'\n''transfer'
        return
        ;;
    esac
}

_places_expense_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_expense_edit() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--paid-by --among --clear)
    non_repeating_options=(--data-dir --socket --title --amount --currency --split --date --category --item --rate)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--title')
        return
        ;;
    '--amount')
        return
        ;;
    '--currency')
        return
        ;;
    '--paid-by')
        return
        ;;
    '--split')
        __places_add_completions -W 'equal'$'\n''shares'$'\n''exact'$'\n''percent'
        return
        ;;
    '--among')
        return
        ;;
    '--date')
        return
        ;;
    '--category')
        return
        ;;
    '--item')
        return
        ;;
    '--rate')
        return
        ;;
    '--clear')
        __places_add_completions -W 'category'$'\n''item'$'\n''rate'
        return
        ;;
    esac
}

_places_expense_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_expense_balances() {
    repeating_flags=()
    non_repeating_flags=(--json --by-category --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_expense_settle() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_expense_debts() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_expense_pay() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --from --to --title --date --category --item --rate)
    __places_offer_flags_options 3

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--from')
        return
        ;;
    '--to')
        return
        ;;
    '--title')
        return
        ;;
    '--date')
        return
        ;;
    '--category')
        return
        ;;
    '--item')
        return
        ;;
    '--rate')
        return
        ;;
    esac
}

_places_expense_export() {
    repeating_flags=()
    non_repeating_flags=(--json --balances --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket -o --output)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '-o'|'--output')
        return
        ;;
    esac
}

_places_traveller() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|add|rename|remove)
        # Offer subcommand argument completions
        "_places_traveller_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list add rename remove' -- "${cur}"))
        ;;
    esac
}

_places_traveller_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_traveller_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_traveller_rename() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 3

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_traveller_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_activity() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_events() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_route() {
    repeating_flags=()
    non_repeating_flags=(--json --round-trip --apply --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --mode --day --by --start --end --format --output)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--mode')
        __places_add_completions -W 'walking'$'\n''cycling'$'\n''driving'
        return
        ;;
    '--day')
        return
        ;;
    '--by')
        __places_add_completions -W 'duration'$'\n''distance'
        return
        ;;
    '--start')
        return
        ;;
    '--end')
        return
        ;;
    '--format')
        __places_add_completions -W 'json'$'\n''geojson'$'\n''gpx'$'\n''gmaps'$'\n''svg'
        return
        ;;
    '--output')
        return
        ;;
    esac
}

_places_peers() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|add)
        # Offer subcommand argument completions
        "_places_peers_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list add' -- "${cur}"))
        ;;
    esac
}

_places_peers_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_peers_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_invitations() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|accept|decline)
        # Offer subcommand argument completions
        "_places_invitations_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list accept decline' -- "${cur}"))
        ;;
    esac
}

_places_invitations_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_invitations_accept() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_invitations_decline() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_contacts() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|show|add|remove)
        # Offer subcommand argument completions
        "_places_contacts_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list show add remove' -- "${cur}"))
        ;;
    esac
}

_places_contacts_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_contacts_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_contacts_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --name)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--name')
        return
        ;;
    esac
}

_places_contacts_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_share() {
    repeating_flags=()
    non_repeating_flags=(--json --qr --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --role --expires --uses --for --with)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--role')
        return
        ;;
    '--expires')
        return
        ;;
    '--uses')
        return
        ;;
    '--for')
        return
        ;;
    '--with')
        return
        ;;
    esac
}

_places_join() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --wait)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--wait')
        return
        ;;
    esac
}

_places_members() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_unshare() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --member --link)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--member')
        return
        ;;
    '--link')
        return
        ;;
    esac
}

_places_friends() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|show|map|add|link|accept|decline|remove)
        # Offer subcommand argument completions
        "_places_friends_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list show map add link accept decline remove' -- "${cur}"))
        ;;
    esac
}

_places_friends_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_friends_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_friends_map() {
    repeating_flags=()
    non_repeating_flags=(--json --geojson --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --category -o --output)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--category')
        return
        ;;
    '-o'|'--output')
        return
        ;;
    esac
}

_places_friends_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_friends_link() {
    repeating_flags=()
    non_repeating_flags=(--json --no-qr --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --hours)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--hours')
        return
        ;;
    esac
}

_places_friends_accept() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_friends_decline() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_friends_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_groups() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|create|rename|add|remove|delete)
        # Offer subcommand argument completions
        "_places_groups_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list create rename add remove delete' -- "${cur}"))
        ;;
    esac
}

_places_groups_list() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_groups_create() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=(--member)
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--member')
        return
        ;;
    esac
}

_places_groups_rename() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_groups_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_groups_remove() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_groups_delete() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_post() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    new|show|delete|like|unlike|comments|comment)
        # Offer subcommand argument completions
        "_places_post_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'new show delete like unlike comments comment' -- "${cur}"))
        ;;
    esac
}

_places_post_new() {
    repeating_flags=()
    non_repeating_flags=(--json --keep-location --version -h --help)
    repeating_options=(--photo)
    non_repeating_options=(--data-dir --socket --place --lat --lon --to)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--place')
        return
        ;;
    '--lat')
        return
        ;;
    '--lon')
        return
        ;;
    '--photo')
        return
        ;;
    '--to')
        return
        ;;
    esac
}

_places_post_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_post_delete() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_post_like() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_post_unlike() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_post_comments() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_post_comment() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|delete)
        # Offer subcommand argument completions
        "_places_post_comment_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add delete' -- "${cur}"))
        ;;
    esac
}

_places_post_comment_add() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_post_comment_delete() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 2

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_feed() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --limit --before)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--limit')
        return
        ;;
    '--before')
        return
        ;;
    esac
}

_places_notifications() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    list|read)
        # Offer subcommand argument completions
        "_places_notifications_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'list read' -- "${cur}"))
        ;;
    esac
}

_places_notifications_list() {
    repeating_flags=()
    non_repeating_flags=(--json --all --read --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_notifications_read() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options -1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_profile() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    show|set)
        # Offer subcommand argument completions
        "_places_profile_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'show set' -- "${cur}"))
        ;;
    esac
}

_places_profile_show() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_profile_set() {
    repeating_flags=()
    non_repeating_flags=(--json --keep-location --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --name --username --bio --picture)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--name')
        return
        ;;
    '--username')
        return
        ;;
    '--bio')
        return
        ;;
    '--picture')
        return
        ;;
    esac
}

_places_photo() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    add|get)
        # Offer subcommand argument completions
        "_places_photo_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'add get' -- "${cur}"))
        ;;
    esac
}

_places_photo_add() {
    repeating_flags=()
    non_repeating_flags=(--json --keep-location --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_photo_get() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket -o --output)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '-o'|'--output')
        return
        ;;
    esac
}

_places_explore() {
    repeating_flags=()
    non_repeating_flags=(--version -h --help)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options 0

    # Offer subcommand / subcommand argument completions
    local -r subcommand="${unparsed_words[0]}"
    unset 'unparsed_words[0]'
    unparsed_words=("${unparsed_words[@]}")
    case "${subcommand}" in
    search|show|route|like|unlike|save|unsave)
        # Offer subcommand argument completions
        "_places_explore_${subcommand}"
        ;;
    *)
        # Offer subcommand completions
        COMPREPLY+=($(compgen -W 'search show route like unlike save unsave' -- "${cur}"))
        ;;
    esac
}

_places_explore_search() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --country --sort --limit)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--country')
        return
        ;;
    '--sort')
        __places_add_completions -W 'likes'$'\n''newest'
        return
        ;;
    '--limit')
        return
        ;;
    esac
}

_places_explore_show() {
    repeating_flags=()
    non_repeating_flags=(--json --plain --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --day)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--day')
        return
        ;;
    esac
}

_places_explore_route() {
    repeating_flags=()
    non_repeating_flags=(--json --round-trip --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --day --mode --by --format --output)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--day')
        return
        ;;
    '--mode')
        __places_add_completions -W 'walking'$'\n''cycling'$'\n''driving'
        return
        ;;
    '--by')
        __places_add_completions -W 'duration'$'\n''distance'
        return
        ;;
    '--format')
        __places_add_completions -W 'json'$'\n''geojson'$'\n''gpx'$'\n''gmaps'$'\n''svg'
        return
        ;;
    '--output')
        return
        ;;
    esac
}

_places_explore_like() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_explore_unlike() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_explore_save() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_explore_unsave() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 1

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_saved() {
    repeating_flags=()
    non_repeating_flags=(--json --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    esac
}

_places_gui() {
    repeating_flags=()
    non_repeating_flags=(--json --no-browser --version -h --help)
    repeating_options=()
    non_repeating_options=(--data-dir --socket --listen --tiles)
    __places_offer_flags_options 0

    # Offer option value completions
    case "${prev}" in
    '--data-dir')
        return
        ;;
    '--socket')
        return
        ;;
    '--listen')
        return
        ;;
    '--tiles')
        return
        ;;
    esac
}

_places_help() {
    repeating_flags=()
    non_repeating_flags=(--version)
    repeating_options=()
    non_repeating_options=()
    __places_offer_flags_options -1
}

complete -o filenames -F _places places
